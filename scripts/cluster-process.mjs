// The processes of `npm run cluster`: starting detached ones, knowing whether one still runs and is ours, stopping
// them, running database programs as the postgres user (they refuse root), ports, waiting. Used by scripts/cluster.mjs
// and scripts/cluster-db.mjs.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const HOST = '127.0.0.1';
export const root = path.resolve(import.meta.dirname, '..');
export { sleep };

/** A failure of one part of the cluster: which part, and the log that tells more. */
export class ClusterError extends Error {
  constructor(part, message, log) {
    super(message);
    this.part = part;
    this.log = log;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// processes

export function cmdlineOf(pid) {
  if (!pid) return undefined;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The process runs and is the one we mean (its command line names the marker: a path under STATE_DIR). */
export const alive = (pid, marker) => Boolean(cmdlineOf(pid)?.includes(marker));

export function pidRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Sends a signal, waits for the process to go, and kills it when it takes longer than `ms`. */
export async function terminate(pid, marker, { signal = 'SIGTERM', ms = 15_000 } = {}) {
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

/**
 * A detached process: it outlives this script; its output is appended to `log`. `postgres`: it runs as the postgres
 * user when this script runs as root (its own pid, no wrapper in between: a signal reaches it).
 */
export function spawnDetached(command, args, { log, env = process.env, cwd = root, postgres = false } = {}) {
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'a');
  fs.writeSync(out, `\n---- ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const user = postgres ? postgresUser() : undefined;
  if (user) fs.fchownSync(out, user.uid, user.gid);
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', out, out], ...(user ? { uid: user.uid, gid: user.gid } : {}) });
  fs.closeSync(out);
  child.unref();
  return child;
}

export function tail(log, lines = 25) {
  try {
    const text = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const SBIN = ['/usr/sbin', '/usr/local/sbin', '/sbin'];
export function which(name) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...SBIN]) {
    if (dir && fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** The PostgreSQL server programs: version 15 when installed, else the newest. */
export function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const version = versions.includes('15') ? '15' : versions[0];
  return version ? path.join(base, version, 'bin') : undefined;
}

export const isRoot = () => process.getuid?.() === 0;

/** The programs of the cluster and the Debian packages that bring them. */
const TOOLS = [
  ['haproxy', 'haproxy'],
  ['pgbouncer', 'pgbouncer'],
  ['patroni', 'patroni'],
  ['etcd', 'etcd-server'],
  ['etcdctl', 'etcd-client'],
  ['pgbackrest', 'pgbackrest'],
  ['prometheus', 'prometheus'],
  ['prometheus-postgres-exporter', 'prometheus-postgres-exporter'],
  ['prometheus-node-exporter', 'prometheus-node-exporter'],
  // deploy/textfile-metrics.sh reads pgbackrest info's JSON with it
  ['jq', 'jq'],
];

/**
 * Installs what the cluster runs (HAProxy, PgBouncer, Patroni, etcd, pgBackRest, Prometheus, the PostgreSQL and node
 * exporters, jq, PostgreSQL) with apt-get when missing, as .ci/run does; not root, it names what is missing and stops.
 */
export function ensureTools(say) {
  const missing = TOOLS.filter(([program]) => !which(program)).map(([, pkg]) => pkg);
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
export function postgresUser() {
  if (!isRoot()) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new ClusterError('tools', 'there is no postgres user (install postgresql, or run as another user than root)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export const asPostgres = (command, args) => (isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);

/** Gives a path to the postgres user (when we are root), so that the database programs can write there. */
export function giveToPostgres(p) {
  const user = postgresUser();
  if (user) fs.chownSync(p, user.uid, user.gid);
}

export function mkdirFor(p, { postgres = false, mode = 0o755 } = {}) {
  fs.mkdirSync(p, { recursive: true, mode });
  if (postgres) giveToPostgres(p);
}

export function touchFor(p, { postgres = false } = {}) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.closeSync(fs.openSync(p, 'a'));
  if (postgres) giveToPostgres(p);
}

export function writeFileFor(p, text, { postgres = false, mode = 0o644 } = {}) {
  fs.writeFileSync(p, text, { mode });
  if (postgres) giveToPostgres(p);
}

/** Runs a PostgreSQL program (as the postgres user when root) and waits for it. */
export function runPg(part, program, args, { log, cwd } = {}) {
  const [command, argv] = asPostgres(path.join(pgBinDir(), program), args);
  const result = spawnSync(command, argv, { cwd: cwd ?? '/', encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new ClusterError(part, `${program} ${args.join(' ')} failed (exit ${result.status}):\n${output}`, log);
  }
  return result.stdout;
}

// ---------------------------------------------------------------------------------------------------------------
// ports

export function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** Who listens on a port, from `ss` (pid and program), for the message that says why a start cannot go on. */
export function portOwner(port) {
  const result = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(result.stdout ?? '');
  return match ? `${match[1]} (pid ${match[2]})` : 'another program';
}

export function canConnect(port, host = HOST) {
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

export async function waitFor(part, what, check, { ms = 60_000, log, gone } = {}) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (gone?.()) throw new ClusterError(part, `exited before ${what}`, log);
    if (Date.now() > deadline) throw new ClusterError(part, `no ${what} after ${Math.round(ms / 1000)} s`, log);
    await sleep(200);
  }
}
