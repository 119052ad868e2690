// `npm run cluster`: the portal as it runs in production, on one machine: a PostgreSQL primary and a streaming
// replica, PgBouncer (transaction pooling) in front of the primary, three portal instances, HAProxy in front of them,
// a mail sink, and a TCP proxy on every path to the databases so that a test can cut one off. Every process is
// detached (it outlives this script), its state kept under .cluster/ (CLUSTER_DIR). docs/deployment.md explains it.
//
//   npm run cluster [-- start]              start what is not running (the first time: create the databases)
//   npm run cluster -- status [--json]
//   npm run cluster -- stop [--purge]       stop everything; --purge also deletes .cluster/ (or: clean)
//   npm run cluster -- kill-instance N      kill -9 one portal instance
//   npm run cluster -- start-instance N
//   npm run cluster -- restart-pooler       stop PgBouncer and start it again
//   npm run cluster -- stop-replica | start-replica   (start-replica rebuilds a former primary as the new replica)
//   npm run cluster -- failover             promote the replica, point PgBouncer at it
//   npm run cluster -- cut-primary SECONDS [--blackhole]   cut the primary off its clients for a while (0: heal)
//   npm run cluster -- cut-replica SECONDS [--blackhole]
//
// The same functions are exported for tests: import { start, stop, status, killInstance, ... } from 'scripts/cluster.mjs'.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { installRelease, makeRelease } from './release.mjs';
import { ensureServerBuild } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** Where the cluster keeps its state: data directories, configuration, logs, pids. */
export const STATE_DIR = path.resolve(process.env.CLUSTER_DIR || path.join(root, '.cluster'));
const HOST = '127.0.0.1';
const INSTANCES = 3;
const NODES = ['db1', 'db2'];

const file = (...parts) => path.join(STATE_DIR, ...parts);
const FILES = {
  state: file('state.json'),
  keys: file('keys.json'),
  lock: file('lock'),
  logs: file('logs'),
  data: file('data'),
  run: file('run'),
  pooler: file('pgbouncer'),
  poolerIni: file('pgbouncer', 'pgbouncer.ini'),
  poolerUsers: file('pgbouncer', 'userlist.txt'),
  poolerPid: file('pgbouncer', 'pgbouncer.pid'),
  haproxyCfg: file('haproxy.cfg'),
  haproxySock: file('haproxy.sock'),
  proxyConfig: file('proxy.json'),
  proxyControl: file('proxy-control.json'),
  releases: file('releases'),
};
const logFile = (name) => path.join(FILES.logs, `${name}.log`);
const nodeDir = (node) => file(node);

/** A failure of one part of the cluster: which part, and the log that tells more. */
export class ClusterError extends Error {
  constructor(part, message, log) {
    super(message);
    this.part = part;
    this.log = log;
  }
}

/**
 * The ports, a fixed block from CLUSTER_PORT (default 8090): the balancer, the instances, HAProxy's statistics page,
 * the two PostgreSQL nodes, their proxied addresses (what the clients use), PgBouncer, the mail sink.
 */
export function portsFor(base) {
  return {
    balancer: base,
    instances: Array.from({ length: INSTANCES }, (_, i) => base + 1 + i),
    stats: base + 4,
    nodes: {
      db1: { port: base + 5, service: base + 7 },
      db2: { port: base + 6, service: base + 8 },
    },
    pooler: base + 9,
    smtp: base + 10,
    mailWeb: base + 11,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// processes

function cmdlineOf(pid) {
  if (!pid) return undefined;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The process runs and is the one we mean (its command line names the marker: a path under STATE_DIR). */
const alive = (pid, marker) => Boolean(cmdlineOf(pid)?.includes(marker));

function pidRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Sends a signal, waits for the process to go, and kills it when it takes longer than `ms`. */
async function terminate(pid, marker, { signal = 'SIGTERM', ms = 15_000 } = {}) {
  if (!alive(pid, marker)) return false;
  try {
    process.kill(pid, signal);
  } catch {
    return false;
  }
  const deadline = Date.now() + ms;
  while (alive(pid, marker)) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      await sleep(100);
      break;
    }
    await sleep(50);
  }
  return true;
}

/** A detached process: it outlives this script; its output is appended to `log`. */
function spawnDetached(command, args, { log, env = process.env, cwd = root } = {}) {
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'a');
  fs.writeSync(out, `\n---- ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  return child;
}

function tail(log, lines = 25) {
  try {
    const text = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const SBIN = ['/usr/sbin', '/usr/local/sbin', '/sbin'];
function which(name) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...SBIN]) {
    if (dir && fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** The PostgreSQL server programs: version 15 when installed, else the newest. */
function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const version = versions.includes('15') ? '15' : versions[0];
  return version ? path.join(base, version, 'bin') : undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Installs haproxy, pgbouncer (and PostgreSQL) with apt-get when they are missing, as .ci/run does for its tools. */
function ensureTools(say) {
  const missing = [];
  if (!which('haproxy')) missing.push('haproxy');
  if (!which('pgbouncer')) missing.push('pgbouncer');
  if (!pgBinDir()) missing.push('postgresql');
  if (missing.length === 0) return;
  if (!isRoot()) throw new ClusterError('tools', `missing: ${missing.join(', ')}. Install them (apt-get install -y ${missing.join(' ')}) and run again.`);
  say(`Installing ${missing.join(', ')} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', ...missing], { env, encoding: 'utf8' });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
    result = install();
  }
  if (result.status !== 0) throw new ClusterError('tools', `apt-get install ${missing.join(' ')} failed:\n${(result.stderr || result.stdout).trim()}`);
}

// initdb, pg_ctl, pg_basebackup and pgbouncer refuse to run as root: as root, they run as the postgres user
function postgresUser() {
  if (!isRoot()) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new ClusterError('tools', 'there is no postgres user (install postgresql, or run as another user than root)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const asPostgres = (command, args) => (isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);

/** Gives a path to the postgres user (when we are root), so that the database programs can write there. */
function giveToPostgres(p) {
  const user = postgresUser();
  if (user) fs.chownSync(p, user.uid, user.gid);
}

function mkdirFor(p, { postgres = false, mode = 0o755 } = {}) {
  fs.mkdirSync(p, { recursive: true, mode });
  if (postgres) giveToPostgres(p);
}

function touchFor(p, { postgres = false } = {}) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.closeSync(fs.openSync(p, 'a'));
  if (postgres) giveToPostgres(p);
}

function writeFileFor(p, text, { postgres = false, mode = 0o644 } = {}) {
  fs.writeFileSync(p, text, { mode });
  if (postgres) giveToPostgres(p);
}

/** Runs a PostgreSQL program (as the postgres user when root) and waits for it. */
function runPg(part, program, args, { log } = {}) {
  const [command, argv] = asPostgres(path.join(pgBinDir(), program), args);
  const result = spawnSync(command, argv, { cwd: STATE_DIR, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new ClusterError(part, `${program} ${args.join(' ')} failed (exit ${result.status}):\n${output}`, log);
  }
  return result.stdout;
}

// ---------------------------------------------------------------------------------------------------------------
// ports

function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** Who listens on a port, from `ss` (pid and program), for the message that says why a start cannot go on. */
function portOwner(port) {
  const result = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(result.stdout ?? '');
  return match ? `${match[1]} (pid ${match[2]})` : 'another program';
}

function canConnect(port, host = HOST) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitFor(part, what, check, { ms = 60_000, log, gone } = {}) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (gone?.()) throw new ClusterError(part, `exited before ${what}`, log);
    if (Date.now() > deadline) throw new ClusterError(part, `no ${what} after ${Math.round(ms / 1000)} s`, log);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// state

/** The cluster's state: ports, which node is the primary, pids, the variables passed to the instances. */
export function readState() {
  try {
    return JSON.parse(fs.readFileSync(FILES.state, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeState(state) {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const tmp = `${FILES.state}.${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, FILES.state);
}

function newState(base) {
  return { version: 1, base, ports: portsFor(base), primary: 'db1', replica: 'db2', pids: {}, env: {}, failovers: [] };
}

/** The same roles a lost state.json would have had: the node that is a standby is the replica. */
function recoverRoles(state) {
  const standby = (node) => fs.existsSync(path.join(nodeDir(node), 'standby.signal'));
  if (standby('db1') && !standby('db2')) Object.assign(state, { primary: 'db2', replica: 'db1' });
}

function keys() {
  if (!fs.existsSync(FILES.keys)) {
    const generate = () => crypto.randomBytes(32).toString('base64');
    fs.writeFileSync(FILES.keys, `${JSON.stringify({ JWT_SECRET: generate(), ENCRYPTION_KEY: generate() }, null, 2)}\n`, { mode: 0o600 });
  }
  return JSON.parse(fs.readFileSync(FILES.keys, 'utf8'));
}

// serialised: one cluster command at a time on this state directory (a file lock across processes, a queue within one)
let queue = Promise.resolve();
function locked(fn) {
  const run = queue.then(() => withFileLock(fn));
  queue = run.catch(() => undefined);
  return run;
}

async function withFileLock(fn) {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const deadline = Date.now() + 300_000;
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(FILES.lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(FILES.lock, 'utf8'));
      if (!holder || !pidRunning(holder)) {
        fs.rmSync(FILES.lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ClusterError('cluster', `another cluster command (pid ${holder}) holds ${FILES.lock}`);
      if (!told) console.error(`Waiting for another cluster command (pid ${holder}) to finish...`);
      told = true;
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(FILES.lock, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the parts: markers (what their command line names), liveness

const MARK = {
  instance: (n) => `--cluster=${STATE_DIR}#instance-${n}`,
  proxy: FILES.proxyConfig,
  mail: `scripts/cluster-mail.mjs`,
  haproxy: FILES.haproxyCfg,
  pooler: FILES.poolerIni,
  node: (node) => `-D ${nodeDir(node)}`,
};

function nodePid(node) {
  try {
    const pid = Number(fs.readFileSync(path.join(nodeDir(node), 'postmaster.pid'), 'utf8').split('\n')[0]);
    return alive(pid, MARK.node(node)) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function poolerPid() {
  try {
    const pid = Number(fs.readFileSync(FILES.poolerPid, 'utf8').trim());
    return alive(pid, MARK.pooler) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const mailAlive = (state) => alive(state.pids.mail, MARK.mail) && cmdlineOf(state.pids.mail).includes(STATE_DIR);
const instanceAlive = (state, n) => alive(state.pids[`instance-${n}`], MARK.instance(n));

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

async function sql(port, text, { database = 'postgres', ms = 3000 } = {}) {
  const client = new pg.Client({ host: HOST, port, user: 'postgres', database, connectionTimeoutMillis: ms, query_timeout: ms });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function inRecovery(port) {
  try {
    const [row] = await sql(port, 'select pg_is_in_recovery() as r', { ms: 1500 });
    return row.r;
  } catch {
    return undefined;
  }
}

function nodeConf(state, node) {
  return [
    '# this node: written by scripts/cluster.mjs',
    `listen_addresses = '${HOST}'`,
    `port = ${state.ports.nodes[node].port}`,
    `unix_socket_directories = '${FILES.run}'`,
    `cluster_name = 'portal-${node}-${state.ports.nodes[node].port}'`,
    'max_connections = 200',
    'wal_level = replica',
    'max_wal_senders = 10',
    "wal_keep_size = '1GB'",
    'hot_standby = on',
    'hot_standby_feedback = on',
    "log_line_prefix = '%m [%p] %q%u@%d '",
    '',
  ].join('\n');
}

const HBA = [
  '# written by scripts/cluster.mjs: trust on this machine only',
  'local all all trust',
  `host all all ${HOST}/32 trust`,
  `host replication postgres ${HOST}/32 trust`,
  '',
].join('\n');

/** Removes what a crashed server left (its pid file, its socket's lock) and kills its orphaned processes. */
async function clearStale(state, node) {
  const dir = nodeDir(node);
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile) || nodePid(node)) return;
  const { port } = state.ports.nodes[node];
  const orphans = fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((pid) => cmdlineOf(pid)?.startsWith(`postgres: portal-${node}-${port}:`));
  for (const pid of orphans) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (orphans.length) await sleep(300);
  fs.rmSync(pidFile, { force: true });
  for (const f of [`.s.PGSQL.${port}`, `.s.PGSQL.${port}.lock`]) fs.rmSync(path.join(FILES.run, f), { force: true });
}

async function startNode(state, node, part) {
  await clearStale(state, node);
  const { port } = state.ports.nodes[node];
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  touchFor(logFile(node), { postgres: true });
  runPg(part, 'pg_ctl', ['-D', nodeDir(node), '-l', logFile(node), '-w', '-t', '90', 'start'], { log: logFile(node) });
  state.pids[node] = nodePid(node);
}

async function stopNode(node, mode = 'fast') {
  if (!nodePid(node)) return false;
  runPg(node, 'pg_ctl', ['-D', nodeDir(node), '-m', mode, '-w', '-t', '60', 'stop'], { log: logFile(node) });
  return true;
}

async function createPrimary(state, node, say) {
  const part = `primary PostgreSQL (${node})`;
  const dir = nodeDir(node);
  say(`Creating the primary database (${node})...`);
  mkdirFor(dir, { postgres: true, mode: 0o700 });
  runPg(part, 'initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  fs.appendFileSync(path.join(dir, 'postgresql.conf'), "\ninclude_if_exists = 'cluster-node.conf'\n");
  writeFileFor(path.join(dir, 'cluster-node.conf'), nodeConf(state, node), { postgres: true, mode: 0o600 });
  writeFileFor(path.join(dir, 'pg_hba.conf'), HBA, { postgres: true, mode: 0o600 });
  await startNode(state, node, part);
}

/** A replica of the primary: pg_basebackup -R (streaming, a standby.signal) into an empty directory, then started. */
async function createReplica(state, node, say) {
  const part = `replica PostgreSQL (${node})`;
  const dir = nodeDir(node);
  const primary = state.ports.nodes[state.primary].port;
  say(`Making ${node} a streaming replica of ${state.primary} (pg_basebackup)...`);
  fs.rmSync(dir, { recursive: true, force: true });
  mkdirFor(dir, { postgres: true, mode: 0o700 });
  runPg(part, 'pg_basebackup', ['-h', HOST, '-p', String(primary), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast']);
  writeFileFor(path.join(dir, 'cluster-node.conf'), nodeConf(state, node), { postgres: true, mode: 0o600 });
  await startNode(state, node, part);
}

const isStandby = (node) => fs.existsSync(path.join(nodeDir(node), 'standby.signal'));

async function ensurePrimary(state, say) {
  const node = state.primary;
  const part = `primary PostgreSQL (${node})`;
  if (nodePid(node)) return false;
  if (!fs.existsSync(path.join(nodeDir(node), 'PG_VERSION'))) await createPrimary(state, node, say);
  else await startNode(state, node, part);
  const { port } = state.ports.nodes[node];
  if ((await inRecovery(port)) !== false) throw new ClusterError(part, 'the primary does not take writes (it is in recovery)', logFile(node));
  const [found] = await sql(port, "select count(*)::int as n from pg_database where datname = 'portal'");
  if (found.n === 0) await sql(port, 'create database portal');
  return true;
}

/** Starts the replica; a node that is not a standby (a former primary, after a failover) is rebuilt from the primary. */
async function ensureReplica(state, say) {
  const node = state.replica;
  const part = `replica PostgreSQL (${node})`;
  if (nodePid(node)) return false;
  if (!fs.existsSync(path.join(nodeDir(node), 'PG_VERSION')) || !isStandby(node)) {
    if (fs.existsSync(path.join(nodeDir(node), 'PG_VERSION')))
      say(`${node} was a primary before the failover: rebuilding it as the replica of ${state.primary}.`);
    await createReplica(state, node, say);
  } else {
    await startNode(state, node, part);
  }
  const { port } = state.ports.nodes[node];
  await waitFor(part, 'hot standby', async () => (await inRecovery(port)) === true, { log: logFile(node) });
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// the TCP proxy in front of each node

function writeProxyConfig(state) {
  const routes = NODES.map((node) => ({
    name: node,
    listen: { host: HOST, port: state.ports.nodes[node].service },
    target: { host: HOST, port: state.ports.nodes[node].port },
  }));
  fs.writeFileSync(FILES.proxyConfig, `${JSON.stringify({ routes, control: FILES.proxyControl }, null, 2)}\n`);
}

async function ensureProxy(state) {
  if (alive(state.pids.proxy, MARK.proxy)) return false;
  const part = 'TCP proxy';
  for (const node of NODES) {
    const port = state.ports.nodes[node].service;
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  }
  writeProxyConfig(state);
  const child = spawnDetached(process.execPath, [path.join(root, 'scripts', 'cluster-tcp-proxy.mjs'), FILES.proxyConfig], { log: logFile('proxy') });
  state.pids.proxy = child.pid;
  const ports = NODES.map((node) => state.ports.nodes[node].service);
  await waitFor(part, 'listening', async () => (await Promise.all(ports.map((p) => canConnect(p)))).every(Boolean), {
    log: logFile('proxy'),
    gone: () => !alive(child.pid, MARK.proxy),
    ms: 15_000,
  });
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// PgBouncer

function writePoolerConfig(state) {
  const target = state.ports.nodes[state.primary].service;
  const ini = [
    '; written by scripts/cluster.mjs: PgBouncer in front of the primary (through the TCP proxy)',
    '[databases]',
    `portal = host=${HOST} port=${target} dbname=portal`,
    `postgres = host=${HOST} port=${target} dbname=postgres`,
    '',
    '[pgbouncer]',
    `listen_addr = ${HOST}`,
    `listen_port = ${state.ports.pooler}`,
    `unix_socket_dir = ${FILES.run}`,
    'auth_type = trust',
    `auth_file = ${FILES.poolerUsers}`,
    'admin_users = postgres',
    'stats_users = postgres',
    'pool_mode = transaction',
    '; 3 instances x a pool of 10, the CLI, and load tests',
    'max_client_conn = 2000',
    'default_pool_size = 20',
    'reserve_pool_size = 5',
    'max_db_connections = 80',
    'ignore_startup_parameters = extra_float_digits,options',
    '; a session advisory lock taken through the pool (the migrator takes one, then unlocks in another transaction,',
    '; which may run on another server connection) must not stay held by a pooled connection: release them whenever',
    '; a server connection goes back to the pool',
    'server_reset_query = SELECT pg_advisory_unlock_all()',
    'server_reset_query_always = 1',
    '; after the primary was unreachable, try again every second (not the default 15 s)',
    'server_login_retry = 1',
    'server_connect_timeout = 3',
    'query_wait_timeout = 30',
    `logfile = ${logFile('pgbouncer')}`,
    `pidfile = ${FILES.poolerPid}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
  writeFileFor(FILES.poolerIni, ini, { postgres: true });
}

async function ensurePooler(state) {
  if (poolerPid()) return false;
  const part = 'PgBouncer';
  const port = state.ports.pooler;
  // a pid file or socket left by a crash
  fs.rmSync(FILES.poolerPid, { force: true });
  for (const f of [`.s.PGSQL.${port}`, `.s.PGSQL.${port}.lock`]) fs.rmSync(path.join(FILES.run, f), { force: true });
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  mkdirFor(FILES.pooler, { postgres: true });
  writeFileFor(FILES.poolerUsers, '"postgres" ""\n', { postgres: true, mode: 0o600 });
  touchFor(logFile('pgbouncer'), { postgres: true });
  writePoolerConfig(state);
  const [command, argv] = asPostgres(which('pgbouncer'), ['-d', '-q', FILES.poolerIni]);
  const result = spawnSync(command, argv, { cwd: STATE_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new ClusterError(part, `pgbouncer did not start: ${`${result.stdout}${result.stderr}`.trim()}`, logFile('pgbouncer'));
  await waitFor(part, 'listening', () => canConnect(port), { log: logFile('pgbouncer'), ms: 15_000 });
  state.pids.pooler = poolerPid();
  return true;
}

async function stopPooler() {
  const pid = poolerPid();
  if (!pid) return false;
  // SIGTERM: immediate shutdown (SIGINT would wait for every client to leave)
  await terminate(pid, MARK.pooler, { ms: 10_000 });
  return true;
}

/** Tells PgBouncer to read its configuration again (the admin console's RELOAD; SIGHUP when the console does not answer). */
async function reloadPooler(state) {
  try {
    await sql(state.ports.pooler, 'RELOAD', { database: 'pgbouncer' });
    return 'RELOAD';
  } catch {
    const pid = poolerPid();
    if (!pid) return 'not running';
    process.kill(pid, 'SIGHUP');
    return 'SIGHUP';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// mail sink

async function ensureMail(state) {
  if (mailAlive(state)) return false;
  const part = 'mail sink';
  for (const port of [state.ports.smtp, state.ports.mailWeb]) {
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  }
  const child = spawnDetached(process.execPath, ['scripts/cluster-mail.mjs', String(state.ports.smtp), String(state.ports.mailWeb), STATE_DIR], {
    log: logFile('mail'),
  });
  state.pids.mail = child.pid;
  await waitFor(part, 'SMTP listening', () => canConnect(state.ports.smtp), { log: logFile('mail'), gone: () => !mailAlive(state), ms: 30_000 });
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// the portal instances

/** The server's variable names (from its configuration schema), so that the caller's settings reach the instances. */
function serverVariables() {
  try {
    const text = fs.readFileSync(path.join(root, 'apps/server/src/config.ts'), 'utf8');
    const schema = text.slice(text.indexOf('EnvSchema'));
    return [...new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]))];
  } catch {
    return [];
  }
}

function databaseUrls(state) {
  const { nodes, pooler } = state.ports;
  const service = (node) => `${HOST}:${nodes[node].service}`;
  return {
    DATABASE_URL: `postgres://postgres@${HOST}:${pooler}/portal`,
    DATABASE_DIRECT_URL: `postgres://postgres@${NODES.map(service).join(',')}/portal?target_session_attrs=read-write`,
    DATABASE_READ_URL: `postgres://postgres@${service(state.replica)}/portal`,
  };
}

/** What the cluster sets for every instance; the caller's own values of these never reach the instances. */
const CLUSTER_SET = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_READ_URL',
  'TRUST_PROXY',
  'DEMO',
  'DEMO_LIVE',
  'MAIL_CATCHER',
  'SMTP_URL',
  'PUBLIC_URL',
];

/** Settings of the caller's environment that the server knows and the cluster does not set (LOG_LEVEL, ...). */
function passThrough() {
  const env = {};
  for (const name of serverVariables()) {
    if (process.env[name] !== undefined && process.env[name] !== '' && !CLUSTER_SET.includes(name)) env[name] = process.env[name];
  }
  return env;
}

/** The environment of instance n (and, with n = 0, of the migrations and the seed). */
function instanceEnv(state, n) {
  const known = new Set([...serverVariables(), ...CLUSTER_SET]);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !known.has(k) && !k.startsWith('VITEST')));
  return {
    ...inherited,
    ...state.env,
    ...keys(),
    ...databaseUrls(state),
    NODE_ENV: 'production',
    PORT: String(n ? state.ports.instances[n - 1] : 0),
    HOST,
    DATA_DIR: FILES.data,
    TRUST_PROXY: HOST,
    DEMO: 'true',
    DEMO_LIVE: n === 1 ? 'true' : 'false',
    MAIL_CATCHER: 'false',
    SMTP_URL: `smtp://${HOST}:${state.ports.smtp}`,
    PUBLIC_URL: `http://${HOST}:${state.ports.balancer}`,
  };
}

/**
 * The release the instances run (npm run release): made from this checkout, unpacked under the cluster's folder and
 * installed with production dependencies only (`npm ci --omit=dev`), as a production host installs it; no transpiler
 * and no development package is there. Made again when the portal's or the server's build was older than its sources
 * (instances already running keep theirs until they are started again). The checkout's mail catcher stands in for a
 * mail server, so the mail sink still runs from the checkout.
 */
async function ensureRelease(state, say) {
  const rebuilt = [ensureWebBuild(), await ensureServerBuild()].some(Boolean);
  if (!rebuilt && state.release && fs.existsSync(path.join(state.release, '.installed'))) return;
  const part = 'release';
  const made = await makeRelease({ out: FILES.releases, log: () => undefined });
  const dir = path.join(FILES.releases, made.folder);
  fs.rmSync(dir, { recursive: true, force: true });
  try {
    installRelease(made.file, FILES.releases);
  } catch (err) {
    throw new ClusterError(part, err instanceof Error ? err.message : String(err));
  }
  fs.writeFileSync(path.join(dir, '.installed'), `${made.sha256}\n`);
  // this release and the one before it stay (instances not yet started again run that one), with their tarballs;
  // older ones go
  const keep = new Set([made.folder, state.release && path.basename(state.release)]);
  state.release = dir;
  writeState(state);
  for (const entry of fs.readdirSync(FILES.releases)) {
    if (!keep.has(entry.replace(/\.tgz(\.sha256)?$/, ''))) fs.rmSync(path.join(FILES.releases, entry), { recursive: true, force: true });
  }
  say(`Release ${made.release.version}-${made.release.commit} installed (production dependencies only).`);
}

/** Migrations, then the demo seed, once, before the instances start (so that three do not seed at the same time). */
function migrateAndSeed(state, say) {
  const part = 'migrations and demo seed';
  say('Migrating and seeding the demo data...');
  for (const command of ['migrate', 'seed']) {
    const out = fs.openSync(logFile('setup'), 'a');
    fs.writeSync(out, `\n---- ${new Date().toISOString()} cli ${command}\n`);
    const result = spawnSync(process.execPath, [path.join(state.release, 'apps/server/dist/cli.js'), command], {
      cwd: state.release,
      env: instanceEnv(state, 0),
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    if (result.status !== 0) throw new ClusterError(part, `the CLI's ${command} failed (exit ${result.status})`, logFile('setup'));
  }
}

async function ready(port) {
  try {
    const res = await fetch(`http://${HOST}:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

async function launchInstance(state, n) {
  const part = `instance-${n}`;
  const port = state.ports.instances[n - 1];
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  const child = spawnDetached(process.execPath, [path.join(state.release, 'apps/server/dist/server.js'), MARK.instance(n)], {
    log: logFile(`instance-${n}`),
    env: instanceEnv(state, n),
    cwd: state.release,
  });
  state.pids[part] = child.pid;
  writeState(state);
  return child.pid;
}

async function waitInstance(state, n) {
  const port = state.ports.instances[n - 1];
  await waitFor(`instance-${n}`, 'GET /readyz = 200', () => ready(port), {
    ms: 120_000,
    log: logFile(`instance-${n}`),
    gone: () => !instanceAlive(state, n),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// HAProxy

/** HAProxy's maxconn: two descriptors a connection must fit under the hard limit of open files (it raises the soft one). */
function haproxyMaxconn() {
  const hard = Number(spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim());
  return Number.isFinite(hard) ? Math.max(256, Math.min(10_000, Math.floor((hard - 200) / 2))) : 4096;
}

function writeHaproxyConfig(state) {
  const { ports } = state;
  const servers = ports.instances.map((port, i) => `  server instance-${i + 1} ${HOST}:${port} check`);
  const cfg = `# written by scripts/cluster.mjs: the balancer in front of the portal instances
global
  maxconn ${haproxyMaxconn()}
  log stdout format raw local0 info
  stats socket ${FILES.haproxySock} mode 600 level admin

defaults
  mode http
  log global
  option httplog
  # only what went wrong is logged: errors, retries, redispatches, 5xx
  option dontlog-normal
  option forwardfor
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout tunnel 1h
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout queue 10s
  timeout check 2s
  # a request that failed on a dead instance is sent again, to another one (redispatch on every retry)
  retries 2
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend portal
  bind ${HOST}:${ports.balancer}
  default_backend instances

backend instances
  balance leastconn
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
  # once a request reached an instance, only those safe to repeat are retried (GET, HEAD, OPTIONS): a POST that an
  # instance may have carried out is not sent twice (a client with an Idempotency-Key may retry it itself)
  http-request disable-l7-retry unless METH_GET || METH_OPTIONS
  # an answer is due within 60 s (then a GET is retried elsewhere), except on the live event stream, which stays
  # open (the server writes a comment every 15 s)
  http-request set-timeout server 60s unless { path_beg /api/v1/events }
${servers.join('\n')}

listen stats
  bind ${HOST}:${ports.stats}
  stats enable
  stats uri /
  stats refresh 5s
`;
  fs.writeFileSync(FILES.haproxyCfg, cfg);
}

async function ensureHaproxy(state) {
  if (alive(state.pids.haproxy, MARK.haproxy)) return false;
  const part = 'HAProxy';
  for (const port of [state.ports.balancer, state.ports.stats]) {
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  }
  writeHaproxyConfig(state);
  const check = spawnSync(which('haproxy'), ['-c', '-q', '-f', FILES.haproxyCfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new ClusterError(part, `the configuration is refused:\n${`${check.stdout}${check.stderr}`.trim()}`);
  fs.rmSync(FILES.haproxySock, { force: true });
  const child = spawnDetached(which('haproxy'), ['-f', FILES.haproxyCfg], { log: logFile('haproxy') });
  state.pids.haproxy = child.pid;
  await waitFor(part, 'listening', () => canConnect(state.ports.balancer), {
    log: logFile('haproxy'),
    gone: () => !alive(child.pid, MARK.haproxy),
    ms: 15_000,
  });
  return true;
}

/** A command on HAProxy's runtime socket. */
function haproxyCommand(command) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(FILES.haproxySock);
    let out = '';
    socket.setTimeout(2000, () => socket.destroy(new Error('HAProxy did not answer')));
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

/** What HAProxy thinks of each instance: its check status (UP, DOWN, ...), and the retries and redispatches it made. */
export async function balancerView() {
  try {
    const csv = (await haproxyCommand('show stat')).trim().split('\n');
    const header = csv[0].replace(/^# /, '').split(',');
    const col = (name) => header.indexOf(name);
    const out = {};
    for (const line of csv.slice(1)) {
      const f = line.split(',');
      if (f[col('pxname')] !== 'instances' || !f[col('svname')].startsWith('instance-')) continue;
      out[f[col('svname')]] = {
        status: f[col('status')],
        retries: Number(f[col('wretr')]),
        redispatches: Number(f[col('wredis')]),
        requests: Number(f[col('stot')]),
      };
    }
    return out;
  } catch {
    return {};
  }
}

async function waitBalancer(state, names, wanted = 'UP', ms = 30_000) {
  if (!alive(state.pids.haproxy, MARK.haproxy)) return;
  await waitFor(
    'HAProxy',
    `${names.join(', ')} ${wanted}`,
    async () => {
      const view = await balancerView();
      return names.every((n) => view[n]?.status?.startsWith(wanted));
    },
    { ms, log: logFile('haproxy') },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// start

const say = (line) => console.log(line);
const url = (state) => `http://${HOST}:${state.ports.balancer}`;

function loadOrCreateState(base) {
  let state = readState();
  if (!state) {
    state = newState(base);
    recoverRoles(state);
  } else if (process.env.CLUSTER_PORT && state.base !== base) {
    say(`The cluster in ${STATE_DIR} was created on ports from ${state.base}; CLUSTER_PORT=${base} is ignored (stop --purge to start afresh).`);
  }
  return state;
}

async function allAlive(state) {
  return (
    mailAlive(state) &&
    Boolean(nodePid(state.primary)) &&
    Boolean(nodePid(state.replica)) &&
    alive(state.pids.proxy, MARK.proxy) &&
    Boolean(poolerPid()) &&
    Array.from({ length: INSTANCES }, (_, i) => instanceAlive(state, i + 1)).every(Boolean) &&
    alive(state.pids.haproxy, MARK.haproxy)
  );
}

/** Every port a part that is not running will take must be free; the message names each one in use and by whom. */
async function checkPorts(state) {
  const { ports } = state;
  const wanted = [];
  if (!mailAlive(state)) wanted.push(['mail sink SMTP', ports.smtp], ['mail sink inbox', ports.mailWeb]);
  for (const node of NODES) {
    if (!nodePid(node)) wanted.push([`PostgreSQL ${node}`, ports.nodes[node].port]);
  }
  if (!alive(state.pids.proxy, MARK.proxy)) for (const node of NODES) wanted.push([`TCP proxy for ${node}`, ports.nodes[node].service]);
  if (!poolerPid()) wanted.push(['PgBouncer', ports.pooler]);
  ports.instances.forEach((port, i) => {
    if (!instanceAlive(state, i + 1)) wanted.push([`instance-${i + 1}`, port]);
  });
  if (!alive(state.pids.haproxy, MARK.haproxy)) wanted.push(['HAProxy', ports.balancer], ['HAProxy statistics', ports.stats]);
  const busy = [];
  for (const [part, port] of wanted) if (!(await portFree(port))) busy.push(`port ${port} (${part}) is in use by ${portOwner(port)}`);
  if (busy.length) {
    throw new ClusterError(
      'ports',
      `${busy.join('\n')}\nFree them, or move the whole block with CLUSTER_PORT=<first port> (on a new cluster: stop --purge first).`,
    );
  }
}

function summary(state) {
  const { ports } = state;
  const p = ports.nodes;
  return [
    `Portal: ${url(state)}`,
    `  instances   ${ports.instances.map((port, i) => `instance-${i + 1} :${port}`).join(', ')}  (logs: ${path.relative(root, FILES.logs)}/instance-N.log)`,
    `  HAProxy     statistics http://${HOST}:${ports.stats}/`,
    `  PgBouncer   ${HOST}:${ports.pooler} (transaction pooling) -> primary`,
    `  primary     ${state.primary} ${HOST}:${p[state.primary].port} (clients through :${p[state.primary].service})`,
    `  replica     ${state.replica} ${HOST}:${p[state.replica].port} (clients through :${p[state.replica].service})`,
    `  mail        inbox http://${HOST}:${ports.mailWeb}/ (SMTP :${ports.smtp})`,
    `Demo accounts: see README.md (password Portal-demo-2026!). Stop: npm run cluster -- stop`,
  ].join('\n');
}

/**
 * Starts whatever part of the cluster is not running (all of it the first time, creating the databases), and waits
 * until every instance answers /readyz and HAProxy serves. Returns the state. A failure stops what this call started.
 */
export function start({ base = Number(process.env.CLUSTER_PORT || 8090) } = {}) {
  return locked(async () => {
    const began = performance.now();
    ensureTools(say);
    mkdirFor(STATE_DIR);
    const state = loadOrCreateState(base);
    if (await allAlive(state)) {
      say(`The cluster is already running.\nPortal: ${url(state)}`);
      return state;
    }
    await checkPorts(state);
    // the instances and the migrations run the release, installed as a production host installs it
    await ensureRelease(state, say);
    for (const dir of [FILES.logs, FILES.data]) mkdirFor(dir);
    mkdirFor(FILES.run, { postgres: true });
    keys();
    state.env = passThrough();
    writeState(state);

    // the parts this start may begin, in order; on a failure, those that were not running before are stopped again
    const instanceNumbers = Array.from({ length: INSTANCES }, (_, i) => i + 1);
    const parts = [
      { part: 'mail sink', running: () => mailAlive(state), stop: () => terminate(state.pids.mail, MARK.mail) },
      { part: state.primary, running: () => Boolean(nodePid(state.primary)), stop: () => stopNode(state.primary) },
      { part: state.replica, running: () => Boolean(nodePid(state.replica)), stop: () => stopNode(state.replica) },
      { part: 'TCP proxy', running: () => alive(state.pids.proxy, MARK.proxy), stop: () => terminate(state.pids.proxy, MARK.proxy) },
      { part: 'PgBouncer', running: () => Boolean(poolerPid()), stop: () => stopPooler() },
      ...instanceNumbers.map((n) => ({
        part: `instance-${n}`,
        running: () => instanceAlive(state, n),
        stop: () => terminate(state.pids[`instance-${n}`], MARK.instance(n)),
      })),
      { part: 'HAProxy', running: () => alive(state.pids.haproxy, MARK.haproxy), stop: () => terminate(state.pids.haproxy, MARK.haproxy) },
    ];
    const before = new Set(parts.filter((p) => p.running()).map((p) => p.part));
    try {
      const steps = [
        () => ensureMail(state),
        () => ensurePrimary(state, say),
        () => ensureReplica(state, say),
        () => ensureProxy(state),
        () => ensurePooler(state),
      ];
      for (const step of steps) {
        await step();
        writeState(state);
      }
      const missing = instanceNumbers.filter((n) => !instanceAlive(state, n));
      if (missing.length) {
        migrateAndSeed(state, say);
        say(`Starting ${missing.map((n) => `instance-${n}`).join(', ')}...`);
        // the first one alone (it creates the job queue's schema on a new database), then the others together
        const [first, ...rest] = missing;
        for (const group of [[first], rest]) {
          for (const n of group) await launchInstance(state, n);
          await Promise.all(group.map((n) => waitInstance(state, n)));
        }
      }
      await ensureHaproxy(state);
      writeState(state);
      await waitBalancer(
        state,
        instanceNumbers.map((n) => `instance-${n}`),
      );
      await waitFor('HAProxy', 'GET /readyz = 200 through the balancer', () => ready(state.ports.balancer), { log: logFile('haproxy'), ms: 15_000 });
    } catch (err) {
      const begun = parts.filter((p) => !before.has(p.part) && p.running());
      if (begun.length) {
        console.error(`Stopping what this start began: ${begun.map((p) => p.part).join(', ')}`);
        for (const p of begun.reverse()) await Promise.resolve(p.stop()).catch(() => undefined);
      }
      writeState(state);
      throw err;
    }
    state.startedAt = new Date().toISOString();
    writeState(state);
    say(summary(state));
    say(`Up in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
    return state;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// stop

/** Processes of this cluster that are still running whatever state.json says: their command line names STATE_DIR. */
function leftovers() {
  const programs = new Set(['node', 'haproxy', 'pgbouncer', 'postgres']);
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((pid) => pid !== process.pid)
    .filter((pid) => {
      const cmd = cmdlineOf(pid);
      if (!cmd?.includes(`${STATE_DIR}/`) && !cmd?.includes(`${STATE_DIR}#`) && !cmd?.endsWith(STATE_DIR)) return false;
      return programs.has(path.basename(cmd.split(' ')[0]));
    });
}

/** Stops every part: HAProxy, the instances (SIGTERM, they finish their requests), PgBouncer, the proxy, both databases, the mail sink. */
export function stop({ purge = false } = {}) {
  return locked(async () => {
    const began = performance.now();
    const state = readState() ?? newState(Number(process.env.CLUSTER_PORT || 8090));
    const stopped = [];
    if (await terminate(state.pids.haproxy, MARK.haproxy)) stopped.push('HAProxy');
    const instances = await Promise.all(
      Array.from({ length: INSTANCES }, (_, i) => i + 1).map(async (n) =>
        (await terminate(state.pids[`instance-${n}`], MARK.instance(n))) ? `instance-${n}` : undefined,
      ),
    );
    stopped.push(...instances.filter(Boolean));
    if (await stopPooler()) stopped.push('PgBouncer');
    if (await terminate(state.pids.proxy, MARK.proxy)) stopped.push('TCP proxy');
    for (const node of [state.replica, state.primary]) {
      if (fs.existsSync(nodeDir(node)) && (await stopNode(node))) stopped.push(`${node} (PostgreSQL)`);
    }
    if (await terminate(state.pids.mail, MARK.mail)) stopped.push('mail sink');
    const left = fs.existsSync(STATE_DIR) ? leftovers() : [];
    for (const pid of left) await terminate(pid, STATE_DIR, { ms: 5000 });
    if (left.length) stopped.push(`${left.length} leftover processes (${left.join(', ')})`);
    for (const node of NODES) if (fs.existsSync(nodeDir(node))) await clearStale(state, node);
    say(stopped.length ? `Stopped: ${stopped.join(', ')}.` : 'Nothing was running.');
    if (purge) {
      fs.rmSync(STATE_DIR, { recursive: true, force: true });
      say(`Removed ${STATE_DIR}.`);
    }
    say(`Done in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// status

/** Where each part is and whether it runs (plus, for the databases, their role as they answer it). */
export async function status() {
  const state = readState();
  if (!state) return { running: false, stateDir: STATE_DIR };
  const { ports } = state;
  const view = await balancerView();
  const instances = await Promise.all(
    ports.instances.map(async (port, i) => {
      const name = `instance-${i + 1}`;
      const isAlive = instanceAlive(state, i + 1);
      return {
        name,
        pid: state.pids[name] ?? null,
        url: `http://${HOST}:${port}`,
        alive: isAlive,
        ready: isAlive ? await ready(port) : false,
        balancer: view[name] ?? null,
        log: logFile(name),
      };
    }),
  );
  let control = {};
  try {
    control = JSON.parse(fs.readFileSync(FILES.proxyControl, 'utf8'));
  } catch {
    // nothing cut
  }
  const database = async (node) => {
    const pid = nodePid(node) ?? null;
    const cut = control.cuts?.[node];
    const recovery = pid ? await inRecovery(ports.nodes[node].port) : undefined;
    return {
      node,
      host: HOST,
      port: ports.nodes[node].port,
      servicePort: ports.nodes[node].service,
      pid,
      alive: Boolean(pid),
      role: recovery === undefined ? (pid ? 'not answering' : 'down') : recovery ? 'replica' : 'primary',
      cutUntil: cut && cut.until > Date.now() ? new Date(cut.until).toISOString() : null,
      dataDir: nodeDir(node),
    };
  };
  const proxyAlive = alive(state.pids.proxy, MARK.proxy);
  const out = {
    running: await allAlive(state),
    stateDir: STATE_DIR,
    balancer: url(state),
    instances,
    primary: await database(state.primary),
    replica: await database(state.replica),
    pooler: {
      host: HOST,
      port: ports.pooler,
      pid: poolerPid() ?? null,
      alive: Boolean(poolerPid()),
      target: { node: state.primary, port: ports.nodes[state.primary].service },
    },
    proxy: {
      pid: state.pids.proxy ?? null,
      alive: proxyAlive,
      routes: NODES.map((node) => ({ node, listen: ports.nodes[node].service, target: ports.nodes[node].port })),
    },
    haproxy: { pid: state.pids.haproxy ?? null, alive: alive(state.pids.haproxy, MARK.haproxy), stats: `http://${HOST}:${ports.stats}/` },
    mail: {
      smtp: `smtp://${HOST}:${ports.smtp}`,
      web: `http://${HOST}:${ports.mailWeb}/`,
      pid: state.pids.mail ?? null,
      alive: mailAlive(state),
    },
    env: databaseUrls(state),
    failovers: state.failovers ?? [],
  };
  return out;
}

function printStatus(s) {
  if (s.balancer === undefined) {
    say(`No cluster in ${s.stateDir}: start one with npm run cluster`);
    return;
  }
  const yes = (b) => (b ? 'running' : 'STOPPED');
  const lines = [
    `Cluster in ${s.stateDir}: ${s.running ? 'all parts running' : 'NOT all parts running'}`,
    `Portal: ${s.balancer}   (HAProxy ${yes(s.haproxy.alive)}, pid ${s.haproxy.pid}, statistics ${s.haproxy.stats})`,
    ...s.instances.map(
      (i) =>
        `  ${i.name}  ${i.url}  ${yes(i.alive)}${i.alive ? ` pid ${i.pid}, ${i.ready ? 'ready' : 'NOT ready'}` : ''}` +
        (i.balancer
          ? `, balancer: ${i.balancer.status} (${i.balancer.requests} requests, ${i.balancer.retries} retries, ${i.balancer.redispatches} redispatches)`
          : ''),
    ),
    ...[s.primary, s.replica].map(
      (d, k) =>
        `  ${k === 0 ? 'primary' : 'replica'}  ${d.node} ${d.host}:${d.port} (clients :${d.servicePort})  ${d.alive ? `pid ${d.pid}, answers as ${d.role}` : 'STOPPED'}` +
        (d.cutUntil ? `, CUT OFF until ${d.cutUntil}` : ''),
    ),
    `  PgBouncer  ${s.pooler.host}:${s.pooler.port} -> ${s.pooler.target.node} :${s.pooler.target.port}  ${yes(s.pooler.alive)}${s.pooler.alive ? ` pid ${s.pooler.pid}` : ''}`,
    `  TCP proxy  ${s.proxy.routes.map((r) => `:${r.listen}->${r.target}`).join(', ')}  ${yes(s.proxy.alive)}`,
    `  mail       ${s.mail.web} (SMTP ${s.mail.smtp})  ${yes(s.mail.alive)}`,
    ...(s.failovers.length ? [`  failovers: ${s.failovers.map((f) => `${f.at} ${f.from} -> ${f.to}`).join('; ')}`] : []),
  ];
  say(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// faults

function stateOrFail() {
  const state = readState();
  if (!state) throw new ClusterError('cluster', `no cluster in ${STATE_DIR}: start one with npm run cluster`);
  return state;
}

function instanceNumber(n) {
  const number = Number(n);
  if (!Number.isInteger(number) || number < 1 || number > INSTANCES) throw new ClusterError('cluster', `an instance is 1 to ${INSTANCES} (not ${n})`);
  return number;
}

/** kill -9 of instance n: what HAProxy must route around. */
export function killInstance(n) {
  return locked(async () => {
    const number = instanceNumber(n);
    const state = stateOrFail();
    const pid = state.pids[`instance-${number}`];
    if (!instanceAlive(state, number)) {
      say(`instance-${number} is not running.`);
      return false;
    }
    process.kill(pid, 'SIGKILL');
    say(`Killed instance-${number} (pid ${pid}, SIGKILL).`);
    return true;
  });
}

/** Starts instance n again and waits until it is ready and HAProxy sends it requests. */
export function startInstance(n) {
  return locked(async () => {
    const number = instanceNumber(n);
    const state = stateOrFail();
    if (instanceAlive(state, number)) {
      say(`instance-${number} is running already (pid ${state.pids[`instance-${number}`]}).`);
      return false;
    }
    const began = performance.now();
    state.env = { ...state.env, ...passThrough() };
    await launchInstance(state, number);
    await waitInstance(state, number);
    await waitBalancer(state, [`instance-${number}`]);
    writeState(state);
    say(`instance-${number} is up (pid ${state.pids[`instance-${number}`]}) in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
    return true;
  });
}

/** Stops PgBouncer (at once: its clients' connections drop) and starts it again. */
export function restartPooler() {
  return locked(async () => {
    const state = stateOrFail();
    const began = performance.now();
    await stopPooler();
    await ensurePooler(state);
    writeState(state);
    say(`PgBouncer restarted (pid ${state.pids.pooler}) in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
  });
}

export function stopReplica() {
  return locked(async () => {
    const state = stateOrFail();
    say((await stopNode(state.replica)) ? `Stopped the replica (${state.replica}).` : `The replica (${state.replica}) is not running.`);
  });
}

/** Starts the replica; after a failover, rebuilds the former primary as the new primary's replica. */
export function startReplica() {
  return locked(async () => {
    const state = stateOrFail();
    const began = performance.now();
    if (!nodePid(state.primary)) throw new ClusterError('replica', `the primary (${state.primary}) is not running`);
    const startedIt = await ensureReplica(state, say);
    writeState(state);
    say(
      startedIt
        ? `The replica (${state.replica}) streams from ${state.primary} (${((performance.now() - began) / 1000).toFixed(1)} s).`
        : `The replica (${state.replica}) is running already.`,
    );
  });
}

/**
 * Failover: the primary is stopped (-m immediate, as if it crashed) when it still runs, the replica promoted,
 * PgBouncer pointed at it (RELOAD), and state.json updated. The instances' DATABASE_DIRECT_URL lists both nodes with
 * target_session_attrs=read-write, so they find the new primary by themselves. The former primary stays down until
 * `start-replica` rebuilds it as the new replica.
 */
export function failover() {
  return locked(async () => {
    const state = stateOrFail();
    const from = state.primary;
    const to = state.replica;
    const began = performance.now();
    if (!nodePid(to)) throw new ClusterError('failover', `the replica (${to}) is not running: there is nothing to promote`);
    if (nodePid(from)) {
      await stopNode(from, 'immediate');
      say(`Stopped the primary (${from}) with -m immediate.`);
    }
    runPg('failover', 'pg_ctl', ['-D', nodeDir(to), '-w', '-t', '60', 'promote'], { log: logFile(to) });
    await waitFor('failover', `${to} taking writes`, async () => (await inRecovery(state.ports.nodes[to].port)) === false, { log: logFile(to) });
    const promoted = performance.now();
    say(`Promoted ${to} (${((promoted - began) / 1000).toFixed(1)} s).`);
    state.primary = to;
    state.replica = from;
    state.failovers = [...(state.failovers ?? []), { at: new Date().toISOString(), from, to }];
    writeState(state);
    if (poolerPid()) {
      writePoolerConfig(state);
      const how = await reloadPooler(state);
      say(`PgBouncer now points at ${to} (:${state.ports.nodes[to].service}; ${how}).`);
    }
    const running = Array.from({ length: INSTANCES }, (_, i) => i + 1).filter((n) => instanceAlive(state, n));
    const readyAll = async () => (await Promise.all(running.map((n) => ready(state.ports.instances[n - 1])))).every(Boolean);
    try {
      await waitFor('failover', 'every instance ready', readyAll, { ms: 60_000 });
      say(`Every running instance answers /readyz = 200, ${((performance.now() - began) / 1000).toFixed(1)} s after the failover began.`);
    } catch {
      say(`Not every instance is ready 60 s after the failover: see ${FILES.logs}/instance-N.log.`);
    }
    say(`${from} is down; \`npm run cluster -- start-replica\` rebuilds it as the replica of ${to}.`);
    return { from, to };
  });
}

/**
 * Cuts a node (the current primary or replica) off its clients for `seconds` (0: heal now): mode 'refuse' resets
 * open connections and refuses new ones; 'blackhole' freezes them (a network partition). Replication is not cut.
 * Returns at once; the proxy ends the cut by itself.
 */
export function cut(role, seconds, { mode = 'refuse' } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const node = state[role];
    if (!node) throw new ClusterError('cut', `role is primary or replica (not ${role})`);
    const s = Number(seconds);
    if (!Number.isFinite(s) || s < 0) throw new ClusterError('cut', `seconds is a number >= 0 (not ${seconds})`);
    if (!alive(state.pids.proxy, MARK.proxy)) throw new ClusterError('cut', 'the TCP proxy is not running (npm run cluster starts it)');
    let control = {};
    try {
      control = JSON.parse(fs.readFileSync(FILES.proxyControl, 'utf8'));
    } catch {
      // first cut
    }
    control.cuts = { ...control.cuts, [node]: { until: Date.now() + s * 1000, mode } };
    fs.writeFileSync(FILES.proxyControl, `${JSON.stringify(control, null, 2)}\n`);
    process.kill(state.pids.proxy, 'SIGUSR2');
    say(
      s > 0
        ? `The ${role} (${node}, clients' port ${state.ports.nodes[node].service}) is cut off for ${s} s (${mode === 'blackhole' ? 'connections frozen, new ones held' : 'connections reset, new ones refused'}).`
        : `The ${role} (${node}) is reachable again.`,
    );
    return { node, until: control.cuts[node].until };
  });
}

export const cutPrimary = (seconds, options) => cut('primary', seconds, options);
export const cutReplica = (seconds, options) => cut('replica', seconds, options);

// ---------------------------------------------------------------------------------------------------------------
// command line

const USAGE = `Usage: npm run cluster -- [command]

  start (default)            start the cluster (creates it under ${path.relative(root, STATE_DIR) || STATE_DIR}/ the first time)
  status [--json]            where each part runs, and whether it does
  stop [--purge]             stop everything; --purge also deletes the state directory
  clean                      the same as stop --purge
  kill-instance N            kill -9 portal instance N (1-${INSTANCES})
  start-instance N           start portal instance N again
  restart-pooler             stop PgBouncer and start it again
  stop-replica               stop the streaming replica
  start-replica              start it (after a failover: rebuild the former primary as the new replica)
  failover                   stop the primary (-m immediate), promote the replica, point PgBouncer at it
  cut-primary SECONDS [--blackhole]
                             cut the primary off its clients for SECONDS (0: heal at once)
  cut-replica SECONDS [--blackhole]

Environment: CLUSTER_PORT (first port of the block, default 8090), CLUSTER_DIR (default .cluster).
Variables of the server (LOG_LEVEL, LOGIN_RATE_LIMIT, ...) set when starting are passed to the instances.`;

async function main(argv) {
  const [command = 'start', ...args] = argv;
  const flag = (name) => args.includes(name);
  switch (command) {
    case 'start':
      await start();
      break;
    case 'status': {
      const s = await status();
      if (flag('--json')) console.log(JSON.stringify(s, null, 2));
      else printStatus(s);
      break;
    }
    case 'stop':
      await stop({ purge: flag('--purge') });
      break;
    case 'clean':
      await stop({ purge: true });
      break;
    case 'kill-instance':
      await killInstance(args[0]);
      break;
    case 'start-instance':
      await startInstance(args[0]);
      break;
    case 'restart-pooler':
      await restartPooler();
      break;
    case 'stop-replica':
      await stopReplica();
      break;
    case 'start-replica':
      await startReplica();
      break;
    case 'failover':
      await failover();
      break;
    case 'cut-primary':
    case 'cut-replica':
      if (args[0] === undefined) throw new ClusterError('cut', `${command} SECONDS [--blackhole]`);
      await cut(command === 'cut-primary' ? 'primary' : 'replica', args[0], { mode: flag('--blackhole') ? 'blackhole' : 'refuse' });
      break;
    case 'help':
    case '--help':
    case '-h':
      say(USAGE);
      break;
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    if (err instanceof ClusterError) {
      console.error(`\n${err.part}: ${err.message}`);
      if (err.log) console.error(`\n--- the end of ${path.relative(root, err.log)} ---\n${tail(err.log)}\n---`);
    } else {
      console.error(err);
    }
    process.exitCode = 1;
  });
}
