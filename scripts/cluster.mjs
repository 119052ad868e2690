// `npm run cluster`: the portal as it runs in production, on one machine: three PostgreSQL nodes run by Patroni
// (automatic failover, synchronous replication, pg_rewind of a former primary) with its leader lock in a three-member
// etcd, pgBackRest (WAL archive, backups, point-in-time restore), HAProxy in front of the database nodes (the leader,
// a replica: Patroni's REST API says which) and of three portal instances, PgBouncer (transaction pooling) in front of
// the leader, a mail sink, Prometheus on the deployment's alerting rules with its exporters, and a TCP proxy on every
// path to a database node so that a test can cut one off or partition it. Every process is detached (it outlives this script), its state kept under .cluster/ (CLUSTER_DIR).
// docs/deployment.md explains it; `npm run cluster -- help` lists the commands.
//
// The same functions are exported for tests: import { start, stop, status, killPrimary, ... } from 'scripts/cluster.mjs'.
// This file starts, stops, reports and breaks the whole; each part has a file of its own: cluster-db.mjs (etcd,
// Patroni, PostgreSQL, pgBackRest), cluster-haproxy.mjs, cluster-pooler.mjs, cluster-instances.mjs, cluster-state.mjs
// (the state file, the keys, the command lock), cluster-monitoring.mjs (Prometheus, the PostgreSQL exporters),
// cluster-roles.mjs, cluster-paths.mjs, cluster-process.mjs.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  backup,
  backupInfo,
  ensureBackups,
  ensureEtcd,
  etcdAlive,
  holdArchiver,
  holdWalSender,
  killNode,
  leader,
  nodesStatus,
  patchDcs,
  patroniAlive,
  patroniCluster,
  postmasterPid,
  reinit,
  restoreDrill,
  sql,
  startPatroni,
  stopEtcd,
  stopPatroni,
  switchover as patroniSwitchover,
  waitHealthy,
} from './cluster-db.mjs';
import { FILES, INSTANCES, MARK, MEMBERS, NODES, STATE_DIR, logFile, nodeDir, portsFor } from './cluster-paths.mjs';
import { balancerView, ensureHaproxy, haproxyCommand, haproxyStats, waitBalancer } from './cluster-haproxy.mjs';
import { ensurePooler, poolerPid, stopPooler } from './cluster-pooler.mjs';
import {
  ensureExporters,
  ensureNodeExporter,
  ensurePrometheus,
  exporterAlive,
  nodeExporterAlive,
  prometheusAlive,
  prometheusUrl,
  stopMonitoring,
  textfileWriterAlive,
} from './cluster-monitoring.mjs';
import { ROLES, databaseSql, roleUrl, rolesSql, secrets } from './cluster-roles.mjs';
import {
  ClusterError,
  HOST,
  alive,
  canConnect,
  cmdlineOf,
  ensureTools,
  mkdirFor,
  portFree,
  portOwner,
  root,
  sleep,
  spawnDetached,
  tail,
  terminate,
  waitFor,
} from './cluster-process.mjs';

import { readState, writeState, STATE_VERSION, newState, keys, writeKeys, locked, mailAlive, instanceAlive } from './cluster-state.mjs';
import {
  databaseUrls,
  passThrough,
  instanceEnv,
  ensureRelease,
  installGivenRelease,
  releasePhase,
  ready,
  launchInstance,
  waitInstance,
} from './cluster-instances.mjs';

export { ClusterError, STATE_DIR, balancerView, portsFor };

// ---------------------------------------------------------------------------------------------------------------
// the TCP proxy: every path to a database node

/**
 * The routes of each node, all in its group (a partition cuts the group): its clients (HAProxy's servers), the
 * other nodes' replication and REST calls to it, and its own Patroni's calls to each etcd member. A cut of a node's
 * clients takes the first route only.
 */
function proxyRoutes(state) {
  const route = (name, group, listen, target) => ({ name, group, listen: { host: HOST, port: listen }, target: { host: HOST, port: target } });
  return NODES.flatMap((node) => {
    const p = state.ports.nodes[node];
    return [
      route(node, node, p.service, p.port),
      route(`${node}/replication`, node, p.replication, p.port),
      route(`${node}/api`, node, p.apiRoute, p.api),
      ...MEMBERS.map((m, k) => route(`${node}/${m}`, node, p.etcdRoutes[k], state.ports.etcd[m].client)),
    ];
  });
}

async function ensureProxy(state) {
  if (alive(state.pids.proxy, MARK.proxy)) return false;
  const part = 'TCP proxy';
  const routes = proxyRoutes(state);
  for (const r of routes) if (!(await portFree(r.listen.port))) throw new ClusterError(part, `port ${r.listen.port} is in use by ${portOwner(r.listen.port)}`);
  fs.writeFileSync(FILES.proxyConfig, `${JSON.stringify({ routes, control: FILES.proxyControl }, null, 2)}\n`);
  const child = spawnDetached(process.execPath, [path.join(root, 'scripts', 'cluster-tcp-proxy.mjs'), FILES.proxyConfig], { log: logFile('proxy') });
  state.pids.proxy = child.pid;
  await waitFor(part, 'listening', async () => (await Promise.all(routes.map((r) => canConnect(r.listen.port)))).every(Boolean), {
    log: logFile('proxy'),
    gone: () => !alive(child.pid, MARK.proxy),
    ms: 15_000,
  });
  return true;
}

function readControl() {
  try {
    return JSON.parse(fs.readFileSync(FILES.proxyControl, 'utf8'));
  } catch {
    return {};
  }
}

/** Writes a cut (of one route) or a partition (of a node's group) and tells the proxy. */
function writeControl(state, change) {
  const control = readControl();
  change(control);
  fs.writeFileSync(FILES.proxyControl, `${JSON.stringify(control, null, 2)}\n`);
  process.kill(state.pids.proxy, 'SIGUSR2');
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
// start

const say = (line) => console.log(line);
const url = (state) => `http://${HOST}:${state.ports.balancer}`;

function loadOrCreateState(base) {
  const state = readState();
  if (!state) return newState(base);
  if (state.version !== STATE_VERSION) {
    throw new ClusterError(
      'cluster',
      `the cluster in ${STATE_DIR} was made by an earlier version of this script (before the database had roles of its own): stop it and start afresh (npm run cluster -- stop --purge)`,
    );
  }
  if (process.env.CLUSTER_PORT && state.base !== base) {
    say(`The cluster in ${STATE_DIR} was created on ports from ${state.base}; CLUSTER_PORT=${base} is ignored (stop --purge to start afresh).`);
  }
  return state;
}

/** Every part runs: the databases count as running when every Patroni and every postmaster does. */
async function allAlive(state) {
  return (
    mailAlive(state) &&
    MEMBERS.every((m) => etcdAlive(state, m)) &&
    NODES.every((n) => patroniAlive(state, n) && Boolean(postmasterPid(n))) &&
    alive(state.pids.proxy, MARK.proxy) &&
    Boolean(poolerPid()) &&
    Array.from({ length: INSTANCES }, (_, i) => instanceAlive(state, i + 1)).every(Boolean) &&
    alive(state.pids.haproxy, MARK.haproxy) &&
    NODES.every((n) => exporterAlive(state, n)) &&
    nodeExporterAlive(state) &&
    textfileWriterAlive(state) &&
    prometheusAlive(state)
  );
}

/** Every port a part that is not running will take must be free; the message names each one in use and by whom. */
async function checkPorts(state) {
  const { ports } = state;
  const wanted = [];
  if (!mailAlive(state)) wanted.push(['mail sink SMTP', ports.smtp], ['mail sink inbox', ports.mailWeb]);
  for (const m of MEMBERS) if (!etcdAlive(state, m)) wanted.push([`etcd ${m}`, ports.etcd[m].client], [`etcd ${m} peers`, ports.etcd[m].peer]);
  for (const node of NODES) {
    if (!postmasterPid(node)) wanted.push([`PostgreSQL ${node}`, ports.nodes[node].port]);
    if (!patroniAlive(state, node)) wanted.push([`Patroni ${node}`, ports.nodes[node].api]);
  }
  if (!alive(state.pids.proxy, MARK.proxy)) for (const r of proxyRoutes(state)) wanted.push([`TCP proxy ${r.name}`, r.listen.port]);
  if (!poolerPid()) wanted.push(['PgBouncer', ports.pooler]);
  ports.instances.forEach((port, i) => {
    if (!instanceAlive(state, i + 1)) wanted.push([`instance-${i + 1}`, port]);
  });
  if (!alive(state.pids.haproxy, MARK.haproxy)) {
    wanted.push(
      ['HAProxy', ports.balancer],
      ['HAProxy statistics', ports.stats],
      ['HAProxy leader', ports.dbPrimary],
      ['HAProxy replicas', ports.dbReplica],
      ['HAProxy metrics', ports.haproxyMetrics],
    );
  }
  for (const node of NODES) if (!exporterAlive(state, node)) wanted.push([`PostgreSQL exporter ${node}`, ports.nodes[node].exporter]);
  if (!nodeExporterAlive(state)) wanted.push(['node exporter', ports.nodeExporter]);
  if (!prometheusAlive(state)) wanted.push(['Prometheus', ports.prometheus]);
  const busy = [];
  for (const [part, port] of wanted) if (!(await portFree(port))) busy.push(`port ${port} (${part}) is in use by ${portOwner(port)}`);
  if (busy.length) {
    throw new ClusterError(
      'ports',
      `${busy.join('\n')}\nFree them, or move the whole block with CLUSTER_PORT=<first port> (on a new cluster: stop --purge first).`,
    );
  }
}

/** The database nodes: etcd, then every Patroni; a new cluster's first node alone (it runs initdb), then the others (they clone it). */
async function ensureDatabases(state) {
  await ensureEtcd(state);
  writeState(state);
  await ensureProxy(state);
  writeState(state);
  const created = NODES.filter((n) => fs.existsSync(path.join(nodeDir(n), 'PG_VERSION')));
  if (created.length === 0) {
    say(`Creating the database nodes: ${NODES[0]} (initdb, data checksums), then ${NODES.slice(1).join(' and ')} (clones of it)...`);
    await startPatroni(state, NODES[0]);
    writeState(state);
    await waitHealthy(state, { replicas: 0, part: `Patroni (${NODES[0]})` });
  }
  for (const node of NODES) await startPatroni(state, node);
  writeState(state);
  const lead = await waitHealthy(state, { replicas: NODES.length - 1 });
  await ensureRoles(state, lead);
  await ensureBackups(state, say);
  return lead;
}

/**
 * The database's roles and the portal database, owned by the migrator, with what each role may do
 * (scripts/cluster-roles.mjs). Each start: a password or a bound changed there is applied.
 */
async function ensureRoles(state, lead) {
  const port = state.ports.nodes[lead].port;
  await sql(port, rolesSql(), { ms: 30_000 });
  const [found] = await sql(port, "select pg_get_userbyid(datdba) as owner from pg_database where datname = 'portal'");
  if (!found) await sql(port, `create database portal owner ${ROLES.migrator}`, { ms: 60_000 });
  else if (found.owner !== ROLES.migrator) {
    throw new ClusterError(
      'roles',
      `the database portal is owned by ${found.owner}, not ${ROLES.migrator}: a cluster made before its roles (npm run cluster -- stop --purge)`,
    );
  }
  await sql(port, databaseSql(), { database: 'portal', ms: 30_000 });
}

function summary(state, lead) {
  const { ports } = state;
  return [
    `Portal: ${url(state)}`,
    `  instances   ${ports.instances.map((port, i) => `instance-${i + 1} :${port}`).join(', ')}  (logs: ${path.relative(root, FILES.logs)}/instance-N.log)`,
    `  HAProxy     statistics http://${HOST}:${ports.stats}/; the leader :${ports.dbPrimary}, a replica :${ports.dbReplica}; metrics :${ports.haproxyMetrics}`,
    `  PgBouncer   ${HOST}:${ports.pooler} (transaction pooling) -> the leader`,
    `  databases   ${NODES.map((n) => `${n} :${ports.nodes[n].port}${n === lead ? ' (leader)' : ''}`).join(', ')}; Patroni REST ${NODES.map((n) => `:${ports.nodes[n].api}`).join(', ')}`,
    `  etcd        ${MEMBERS.map((m) => `${m} :${ports.etcd[m].client}`).join(', ')}`,
    `  backups     ${path.relative(root, FILES.backups)}/ (pgBackRest, WAL archived)`,
    `  mail        inbox http://${HOST}:${ports.mailWeb}/ (SMTP :${ports.smtp})`,
    `  Prometheus  ${prometheusUrl(state)}/alerts${state.alertFor ? ` (every for: ${state.alertFor})` : ''}; PostgreSQL exporters ${NODES.map((n) => `:${ports.nodes[n].exporter}`).join(', ')}`,
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
      ...MEMBERS.map((m) => ({ part: m, running: () => etcdAlive(state, m), stop: () => stopEtcd(state) })),
      { part: 'TCP proxy', running: () => alive(state.pids.proxy, MARK.proxy), stop: () => terminate(state.pids.proxy, MARK.proxy) },
      ...NODES.map((n) => ({ part: `Patroni ${n}`, running: () => patroniAlive(state, n), stop: () => stopPatroni(state, n) })),
      { part: 'HAProxy', running: () => alive(state.pids.haproxy, MARK.haproxy), stop: () => terminate(state.pids.haproxy, MARK.haproxy) },
      { part: 'PgBouncer', running: () => Boolean(poolerPid()), stop: () => stopPooler() },
      ...instanceNumbers.map((n) => ({
        part: `instance-${n}`,
        running: () => instanceAlive(state, n),
        stop: () => terminate(state.pids[`instance-${n}`], MARK.instance(n)),
      })),
      ...NODES.map((n) => ({
        part: `PostgreSQL exporter ${n}`,
        running: () => exporterAlive(state, n),
        stop: () => terminate(state.pids[`exporter-${n}`], MARK.exporter(n)),
      })),
      { part: 'node exporter', running: () => nodeExporterAlive(state), stop: () => terminate(state.pids.nodeExporter, MARK.nodeExporter) },
      { part: 'textfile writer', running: () => textfileWriterAlive(state), stop: () => terminate(state.pids.textfileWriter, MARK.textfileWriter) },
      { part: 'Prometheus', running: () => prometheusAlive(state), stop: () => terminate(state.pids.prometheus, MARK.prometheus) },
    ];
    const before = new Set(parts.filter((p) => p.running()).map((p) => p.part));
    let lead;
    try {
      await ensureMail(state);
      writeState(state);
      lead = await ensureDatabases(state);
      writeState(state);
      await ensureHaproxy(state);
      writeState(state);
      await ensurePooler(state);
      writeState(state);
      const missing = instanceNumbers.filter((n) => !instanceAlive(state, n));
      if (missing.length) {
        say('Migrating and seeding the demo data...');
        await releasePhase(state, ['migrate', 'seed'], 'migrations and demo seed');
        say(`Starting ${missing.map((n) => `instance-${n}`).join(', ')}...`);
        // the first one alone (it makes the job queues' tables on a new database), then the others together
        const [first, ...rest] = missing;
        for (const group of [[first], rest]) {
          for (const n of group) await launchInstance(state, n);
          await Promise.all(group.map((n) => waitInstance(state, n)));
        }
      }
      writeState(state);
      await waitBalancer(
        state,
        instanceNumbers.map((n) => `instance-${n}`),
      );
      await waitFor('HAProxy', 'GET /readyz = 200 through the balancer', () => ready(state.ports.balancer), { log: logFile('haproxy'), ms: 15_000 });
      // the monitoring last, once every part it scrapes is up: an alert it shows is a fault, not the start
      await ensureExporters(state);
      writeState(state);
      await ensureNodeExporter(state);
      writeState(state);
      await ensurePrometheus(state);
      writeState(state);
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
    say(summary(state, lead));
    say(`Up in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
    return state;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// stop

/** Processes of this cluster that are still running whatever state.json says: their command line names STATE_DIR. */
function leftovers() {
  const programs = new Set([
    'node',
    'haproxy',
    'pgbouncer',
    'postgres',
    'etcd',
    'patroni',
    'python3',
    'pgbackrest',
    'prometheus',
    'prometheus-postgres-exporter',
    'prometheus-node-exporter',
    // the textfile writer (deploy/textfile-metrics.sh)
    'sh',
  ]);
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

/**
 * Stops every part: Prometheus and the exporters, HAProxy, the instances (SIGTERM, they finish their requests), PgBouncer, the database nodes
 * (the replicas first, so that stopping the leader moves nothing), etcd, the proxy, the mail sink.
 */
export function stop({ purge = false } = {}) {
  return locked(async () => {
    const began = performance.now();
    const state = readState() ?? newState(Number(process.env.CLUSTER_PORT || 8090));
    const stopped = await stopMonitoring(state);
    if (await terminate(state.pids.haproxy, MARK.haproxy)) stopped.push('HAProxy');
    const instances = await Promise.all(
      Array.from({ length: INSTANCES }, (_, i) => i + 1).map(async (n) =>
        (await terminate(state.pids[`instance-${n}`], MARK.instance(n))) ? `instance-${n}` : undefined,
      ),
    );
    stopped.push(...instances.filter(Boolean));
    if (await stopPooler()) stopped.push('PgBouncer');
    if (state.version >= 2) {
      const lead = await leader(state).catch(() => undefined);
      const order = [...NODES.filter((n) => n !== lead), ...(lead ? [lead] : [])];
      const replicas = order.slice(0, lead ? -1 : undefined);
      const done = await Promise.all(replicas.map(async (n) => ((await stopPatroni(state, n).catch(() => false)) ? n : undefined)));
      if (lead && (await stopPatroni(state, lead).catch(() => false))) done.push(lead);
      const nodes = done.filter(Boolean);
      if (nodes.length) stopped.push(`Patroni and PostgreSQL (${nodes.join(', ')})`);
      const members = await stopEtcd(state);
      if (members.length) stopped.push(`etcd (${members.join(', ')})`);
    }
    if (await terminate(state.pids.proxy, MARK.proxy)) stopped.push('TCP proxy');
    if (await terminate(state.pids.mail, MARK.mail)) stopped.push('mail sink');
    const left = fs.existsSync(STATE_DIR) ? leftovers() : [];
    for (const pid of left) await terminate(pid, STATE_DIR, { ms: 5000 });
    if (left.length) stopped.push(`${left.length} leftover processes (${left.join(', ')})`);
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

/** Patroni's history of leaders (GET /history): one line per timeline change, newest last. */
async function leaderHistory(state) {
  for (const node of NODES) {
    if (!patroniAlive(state, node)) continue;
    try {
      const res = await fetch(`http://${HOST}:${state.ports.nodes[node].api}/history`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return (await res.json()).map(([timeline, lsn, reason, at, newLeader]) => ({ timeline, lsn, reason, at, leader: newLeader ?? null }));
    } catch {
      // the next one
    }
  }
  return [];
}

/** Where each part is and whether it runs; for the database nodes, their role as they answer it, lag and sync. */
export async function status() {
  const state = readState();
  if (!state) return { running: false, stateDir: STATE_DIR };
  if (state.version !== STATE_VERSION) return { running: false, stateDir: STATE_DIR, outdated: true };
  const { ports } = state;
  const stats = await haproxyStats();
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
        balancer: stats.instances?.[name] ?? null,
        log: logFile(name),
      };
    }),
  );
  const control = readControl();
  const until = (c) => (c && c.until > Date.now() ? new Date(c.until).toISOString() : null);
  const nodes = (await nodesStatus(state)).map((n) => ({
    ...n,
    cutUntil: until(control.cuts?.[n.name]),
    partitionedUntil: until(control.partitions?.[n.name]),
    balancer: { primary: stats['postgres-primary']?.[n.name]?.status ?? null, replicas: stats['postgres-replicas']?.[n.name]?.status ?? null },
  }));
  return {
    running: await allAlive(state),
    stateDir: STATE_DIR,
    balancer: url(state),
    instances,
    nodes,
    leader: nodes.find((n) => n.leader)?.name ?? null,
    etcd: MEMBERS.map((m) => ({ name: m, pid: state.pids[m] ?? null, alive: etcdAlive(state, m), client: `http://${HOST}:${ports.etcd[m].client}` })),
    pooler: { host: HOST, port: ports.pooler, pid: poolerPid() ?? null, alive: Boolean(poolerPid()), target: `${HOST}:${ports.dbPrimary}` },
    proxy: { pid: state.pids.proxy ?? null, alive: alive(state.pids.proxy, MARK.proxy) },
    haproxy: {
      pid: state.pids.haproxy ?? null,
      alive: alive(state.pids.haproxy, MARK.haproxy),
      stats: `http://${HOST}:${ports.stats}/`,
      leader: `${HOST}:${ports.dbPrimary}`,
      replicas: `${HOST}:${ports.dbReplica}`,
    },
    mail: {
      smtp: `smtp://${HOST}:${ports.smtp}`,
      web: `http://${HOST}:${ports.mailWeb}/`,
      pid: state.pids.mail ?? null,
      alive: mailAlive(state),
    },
    prometheus: {
      url: prometheusUrl(state),
      pid: state.pids.prometheus ?? null,
      alive: prometheusAlive(state),
      alertFor: state.alertFor ?? null,
      exporters: {
        haproxy: `http://${HOST}:${ports.haproxyMetrics}/metrics`,
        node: { url: `http://${HOST}:${ports.nodeExporter}/metrics`, pid: state.pids.nodeExporter ?? null, alive: nodeExporterAlive(state) },
        textfiles: { dir: FILES.textfile, pid: state.pids.textfileWriter ?? null, alive: textfileWriterAlive(state) },
        postgres: NODES.map((n) => ({
          node: n,
          url: `http://${HOST}:${ports.nodes[n].exporter}/metrics`,
          pid: state.pids[`exporter-${n}`] ?? null,
          alive: exporterAlive(state, n),
        })),
      },
    },
    env: databaseUrls(state),
    history: await leaderHistory(state),
  };
}

function printStatus(s) {
  if (s.outdated) {
    say(`The cluster in ${s.stateDir} was made by an earlier version of this script: npm run cluster -- stop --purge, then start again.`);
    return;
  }
  if (s.balancer === undefined) {
    say(`No cluster in ${s.stateDir}: start one with npm run cluster`);
    return;
  }
  const yes = (b) => (b ? 'running' : 'STOPPED');
  const writers = s.nodes.filter((n) => n.role === 'primary');
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
    ...s.nodes.map(
      (n) =>
        `  ${n.name}  :${n.port}  ${n.pid ? `postmaster ${n.pid}, ${n.role}${n.leader ? ' (leader)' : ''}` : 'PostgreSQL STOPPED'}` +
        (n.role === 'replica' ? `, ${n.lagBytes === null ? 'not streaming' : `${n.lagBytes} bytes behind`}${n.sync ? ', synchronous' : ''}` : '') +
        `; Patroni ${n.patroni.alive ? `${n.patroni.state ?? '?'} (pid ${n.patroni.pid}, timeline ${n.patroni.timeline ?? '?'})` : 'STOPPED'}` +
        `; HAProxy ${n.balancer.primary ?? '?'}/${n.balancer.replicas ?? '?'}` +
        (n.cutUntil ? `, CUT OFF until ${n.cutUntil}` : '') +
        (n.partitionedUntil ? `, PARTITIONED until ${n.partitionedUntil}` : ''),
    ),
    ...(writers.length > 1 ? [`  !! ${writers.length} nodes take writes: ${writers.map((n) => n.name).join(', ')}`] : []),
    `  etcd       ${s.etcd.map((m) => `${m.name} ${yes(m.alive)}`).join(', ')}`,
    `  PgBouncer  ${s.pooler.host}:${s.pooler.port} -> ${s.pooler.target} (HAProxy: the leader)  ${yes(s.pooler.alive)}${s.pooler.alive ? ` pid ${s.pooler.pid}` : ''}`,
    `  TCP proxy  ${yes(s.proxy.alive)}`,
    `  mail       ${s.mail.web} (SMTP ${s.mail.smtp})  ${yes(s.mail.alive)}`,
    `  Prometheus ${s.prometheus.url}/alerts  ${yes(s.prometheus.alive)}${s.prometheus.alertFor ? ` (every for: ${s.prometheus.alertFor})` : ''}; ` +
      `PostgreSQL exporters ${s.prometheus.exporters.postgres.map((e) => `${e.node} ${yes(e.alive)}`).join(', ')}; HAProxy ${s.prometheus.exporters.haproxy}; ` +
      `node ${s.prometheus.exporters.node.url} ${yes(s.prometheus.exporters.node.alive)}, its text files ${yes(s.prometheus.exporters.textfiles.alive)}`,
    ...(s.history.length
      ? [`  leaders: ${s.history.map((h) => `timeline ${h.timeline + 1} from ${h.at ?? '?'}${h.leader ? ` (${h.leader})` : ''}`).join('; ')}`]
      : []),
  ];
  say(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// faults and operations

function stateOrFail() {
  const state = readState();
  if (!state) throw new ClusterError('cluster', `no cluster in ${STATE_DIR}: start one with npm run cluster`);
  if (state.version !== STATE_VERSION) loadOrCreateState(state.base);
  return state;
}

function instanceNumber(n) {
  const number = Number(n);
  if (!Number.isInteger(number) || number < 1 || number > INSTANCES) throw new ClusterError('cluster', `an instance is 1 to ${INSTANCES} (not ${n})`);
  return number;
}

/**
 * A node named by role or name: 'primary' (the leader), 'replica' (the one HAProxy sends reads to, else any),
 * 'sync' or 'async' (by their replication), or db1, db2, db3.
 */
async function nodeOf(state, which = 'replica') {
  if (NODES.includes(which)) return which;
  if (!['primary', 'leader', 'replica', 'sync', 'async'].includes(which)) {
    throw new ClusterError('cluster', `a node is ${NODES.join(', ')}, primary, replica, sync or async (not ${which})`);
  }
  const nodes = await nodesStatus(state);
  const readsFrom = (await haproxyStats())['postgres-replicas'];
  const lead = nodes.find((n) => n.leader);
  const replicas = nodes.filter((n) => n.role === 'replica');
  const found =
    which === 'primary' || which === 'leader'
      ? lead
      : which === 'sync'
        ? replicas.find((n) => n.sync)
        : which === 'async'
          ? replicas.find((n) => !n.sync && n.lagBytes !== null)
          : which === 'replica'
            ? (replicas.find((n) => readsFrom?.[n.name]?.status?.startsWith('UP')) ?? replicas[0])
            : undefined;
  if (!found) throw new ClusterError('cluster', `there is no ${which} node now`);
  return found.name;
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

/**
 * A rolling deploy, as an operator runs one: the release made again when this checkout's sources changed (or
 * `release`, another release's tarball: the previous one, to roll back to), then one instance after another: HAProxy
 * stops giving it new requests (drain), it is stopped with SIGTERM (it finishes the requests it has; its live streams
 * end and the portal resumes them on another instance), started on the release, and given requests again once ready.
 * Two instances serve all along.
 */
export function deploy({ release } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const began = performance.now();
    if (release) {
      state.release = await installGivenRelease(release);
      writeState(state);
      say(`Release ${path.basename(state.release)} installed (production dependencies only).`);
    } else await ensureRelease(state, say);
    state.env = { ...state.env, ...passThrough() };
    // the release's migrations first, as the migrator (each is one the running release still works with)
    await releasePhase(state, ['migrate'], 'migrations');
    await rollInstances(state);
    const seconds = (performance.now() - began) / 1000;
    say(`Deployed ${path.basename(state.release)} to ${state.ports.instances.length} instances, one at a time, in ${seconds.toFixed(1)} s.`);
    return { release: path.basename(state.release), seconds };
  });
}

/**
 * Installs another release's tarball beside this checkout's without deploying it, so that a later `deploy --release`
 * only rolls the instances (the install takes seconds of CPU); answers its folder.
 */
export function prepareRelease(tarball) {
  return locked(async () => {
    stateOrFail();
    return installGivenRelease(tarball);
  });
}

/** Each instance in turn drained at the balancer, stopped (SIGTERM), started on the release and its keys, given requests again. */
async function rollInstances(state) {
  for (let n = 1; n <= state.ports.instances.length; n++) {
    const name = `instance-${n}`;
    await haproxyCommand(`set server instances/${name} state drain`);
    await haproxyCommand(`set server pages/${name} state drain`);
    // the balancer's checks and the requests on their way in see the drain before the instance goes
    await sleep(1000);
    if (instanceAlive(state, n)) await terminate(state.pids[name], MARK.instance(n), { ms: 15_000 });
    await launchInstance(state, n);
    await waitInstance(state, n);
    await haproxyCommand(`set server instances/${name} state ready`);
    await haproxyCommand(`set server pages/${name} state ready`);
    await waitBalancer(state, [name]);
    say(`${name} runs ${path.basename(state.release)} (pid ${state.pids[name]}).`);
  }
  writeState(state);
}

/**
 * A rotation of JWT_SECRET and ENCRYPTION_KEY (docs/deployment.md, "Rotating the keys"), each stage rolled out one
 * instance at a time as a deploy is, so that instances of two stages always understand each other. `rotate-keys`:
 * new keys made, rolled out first as accepted only, then signing and sealing with the old ones accepted.
 * `rotate-keys --finish`, once every access token signed with the old key has expired (ACCESS_TOKEN_SECONDS after the
 * second stage; `now` skips the wait: a tab holding one renews it once): `cli rekey` seals the stored secrets again with
 * the new key and moves the database to the new keys, then the new keys alone are rolled out.
 */
export function rotateKeys({ finish = false, now = false } = {}) {
  return locked(async () => {
    const part = 'rotate-keys';
    const state = stateOrFail();
    const began = performance.now();
    const saved = keys();
    const settled = Object.fromEntries(Object.entries(saved).filter(([name]) => !name.endsWith('_ACCEPTED')));
    // accepted keys in the keys file: a rotation under way, or one stopped halfway (a stage that failed to roll out)
    const underWay = Object.keys(saved).some((name) => name.endsWith('_ACCEPTED'));
    if (!finish) {
      if (underWay) throw new ClusterError(part, 'a rotation is under way (or stopped halfway): finish it first (rotate-keys --finish)');
      const next = { JWT_SECRET: crypto.randomBytes(32).toString('base64'), ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64') };
      writeKeys({ ...settled, JWT_SECRET_ACCEPTED: next.JWT_SECRET, ENCRYPTION_KEY_ACCEPTED: next.ENCRYPTION_KEY });
      say('Stage 1 of 3: the new keys are accepted, the old ones still sign and seal.');
      await rollInstances(state);
      writeKeys({ ...settled, ...next, JWT_SECRET_ACCEPTED: saved.JWT_SECRET, ENCRYPTION_KEY_ACCEPTED: saved.ENCRYPTION_KEY });
      say('Stage 2 of 3: the new keys sign and seal, the old ones are still accepted.');
      await rollInstances(state);
      const tokenSeconds = Number(instanceEnv(state, 1).ACCESS_TOKEN_SECONDS ?? 900);
      state.rotation = { finishAfter: Date.now() + tokenSeconds * 1000 };
      writeState(state);
      say(
        `Keys rotated in ${((performance.now() - began) / 1000).toFixed(1)} s. Finish with \`rotate-keys --finish\` after ` +
          `${new Date(state.rotation.finishAfter).toISOString()}, when the access tokens signed with the old key have expired.`,
      );
      return { stage: 2, finishAfter: state.rotation.finishAfter };
    }
    if (!underWay) throw new ClusterError(part, 'no rotation under way: start one with rotate-keys');
    // stopped halfway, there is no time to wait for: only --now finishes it (with the keys that sign now)
    const finishAfter = state.rotation?.finishAfter ?? Infinity;
    if (Date.now() < finishAfter && !now)
      throw new ClusterError(
        part,
        Number.isFinite(finishAfter)
          ? `access tokens signed with the old key live until ${new Date(finishAfter).toISOString()}: finish after that (or with --now: a tab holding one renews it once)`
          : 'the rotation stopped halfway: --finish --now keeps the keys that sign now and drops the accepted ones',
      );
    say('Stage 3 of 3: the stored secrets sealed again with the new key (cli rekey), then the new keys alone.');
    await releasePhase(state, ['rekey'], 'rekey');
    writeKeys(settled);
    await rollInstances(state);
    delete state.rotation;
    writeState(state);
    say(`Rotation finished in ${((performance.now() - began) / 1000).toFixed(1)} s: the old keys are gone from every instance.`);
    return { stage: 3, finishAfter: null };
  });
}

/**
 * The operator's access, with the secrets of roles.json (never printed by status): the superuser (and its connection
 * string through the leader's address), the app's role, PgBouncer's admin console, HAProxy's statistics page.
 */
export function operatorAccess() {
  const { ports } = stateOrFail();
  const s = secrets();
  return {
    superuser: { user: ROLES.superuser, password: s.superuser },
    app: { user: ROLES.app, password: s.app },
    superuserUrl: roleUrl('superuser', ports.dbPrimary),
    poolerAdminUrl: roleUrl('poolerAdmin', ports.pooler, 'pgbouncer'),
    stats: { url: `http://${HOST}:${ports.stats}/`, user: ROLES.stats, password: s.stats },
  };
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

/** kill -9 of the leader's postmaster, and nothing else: Patroni (still running there) hands the lead to the synchronous replica. */
export function killPrimary() {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, 'primary');
    const pid = postmasterPid(node);
    if (!pid) throw new ClusterError('kill-primary', `${node}'s postmaster is not running`);
    process.kill(pid, 'SIGKILL');
    say(`Killed ${node}'s postmaster (pid ${pid}, SIGKILL); Patroni fails over by itself.`);
    return { node, pid, at: Date.now() };
  });
}

/** kill -9 of a node's Patroni and postmaster: a host lost. When it was the leader, its lock expires (ttl) and the synchronous replica takes it. */
export function killNodeCommand(which) {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, which);
    const killed = killNode(state, node);
    say(killed.length ? `Killed ${node}: ${killed.join(', ')} (SIGKILL).` : `${node} was not running.`);
    return { node, at: Date.now() };
  });
}

/** Starts a node's Patroni (a former primary is rewound and rejoins as a replica) and waits until it streams. */
export function startNode(which) {
  return locked(async () => {
    const state = stateOrFail();
    if (!NODES.includes(which)) throw new ClusterError('start-node', `a node is ${NODES.join(', ')} (not ${which})`);
    const began = performance.now();
    if (!(await startPatroni(state, which))) {
      say(`${which}'s Patroni is running already.`);
      return false;
    }
    writeState(state);
    await waitFor(
      `Patroni (${which})`,
      'streaming from the leader',
      async () => {
        const lead = await leader(state);
        if (!lead || lead === which) return lead === which;
        const rows = await sql(state.ports.nodes[lead].port, "select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'", {
          values: [which],
        }).catch(() => []);
        return rows.length > 0;
      },
      { ms: 120_000, log: logFile(`patroni-${which}`) },
    );
    say(`${which} is back and streams from the leader (${((performance.now() - began) / 1000).toFixed(1)} s).`);
    return true;
  });
}

/** Stops a node cleanly (its Patroni stops its PostgreSQL; a leader hands the lock to the synchronous replica first). */
export function stopNode(which) {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, which);
    const stopped = await stopPatroni(state, node);
    say(stopped ? `Stopped ${node} (Patroni and PostgreSQL).` : `${node} was not running.`);
    return node;
  });
}

/** Stops a replica (by default the one reads go to). */
export function stopReplica(which = 'replica') {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, which);
    if ((await leader(state)) === node) throw new ClusterError('stop-replica', `${node} is the leader`);
    await stopPatroni(state, node);
    say(`Stopped the replica ${node}.`);
    return node;
  });
}

/** Starts every node that is not running (or the one named), and waits until each streams. */
export async function startReplica(which) {
  const state = stateOrFail();
  const nodes = which ? [which] : NODES.filter((n) => !patroniAlive(state, n));
  for (const node of nodes) await startNode(node);
  return nodes;
}

/** A planned switchover (to `to`, else to the synchronous replica); waits until the new leader takes writes. */
export function switchover(to) {
  return locked(async () => {
    const state = stateOrFail();
    const began = performance.now();
    if (to && !NODES.includes(to)) throw new ClusterError('switchover', `a node is ${NODES.join(', ')} (not ${to})`);
    const moved = await patroniSwitchover(state, to);
    await waitFor('switchover', `${moved.to} taking writes`, async () => (await leader(state)) === moved.to, { ms: 60_000 });
    say(`Switched over from ${moved.from} to ${moved.to} in ${((performance.now() - began) / 1000).toFixed(1)} s.`);
    return moved;
  });
}

/** Holds the leader's WAL sender to a replica (SIGSTOP) for `seconds`, then lets it go; resolves once it is let go. */
export function holdWal(which, seconds) {
  return locked(async () => {
    const state = stateOrFail();
    const s = Number(seconds);
    if (!Number.isFinite(s) || s <= 0) throw new ClusterError('hold-wal', `seconds is a number > 0 (not ${seconds})`);
    const node = await nodeOf(state, which);
    const held = await holdWalSender(state, node, s);
    say(`Holding ${held.leader}'s WAL sender to ${node} (pid ${held.pid}, SIGSTOP) for ${s} s...`);
    return { node, pid: held.pid, leader: held.leader, release: held.release };
  });
}

/** Holds the leader's archiver (SIGSTOP) until `release()`; `kill()` ends it once its postmaster is gone (a host lost mid-stall). */
export function holdArchive() {
  return locked(async () => {
    const held = await holdArchiver(stateOrFail());
    say(`Holding ${held.leader}'s archiver (pid ${held.pid}, SIGSTOP): its WAL segments are completed, not archived.`);
    return held;
  });
}

/**
 * Cuts a node (the leader, a replica, or one by name) off its clients for `seconds` (0: heal now): mode 'refuse'
 * resets open connections and refuses new ones; 'blackhole' freezes them. Replication and Patroni are not cut.
 * Returns at once; the proxy ends the cut by itself.
 */
export function cut(role, seconds, { mode = 'refuse' } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, role);
    const s = Number(seconds);
    if (!Number.isFinite(s) || s < 0) throw new ClusterError('cut', `seconds is a number >= 0 (not ${seconds})`);
    if (!alive(state.pids.proxy, MARK.proxy)) throw new ClusterError('cut', 'the TCP proxy is not running (npm run cluster starts it)');
    const until = Date.now() + s * 1000;
    writeControl(state, (control) => (control.cuts = { ...control.cuts, [node]: { until, mode } }));
    say(
      s > 0
        ? `${node} (${role}) is cut off its clients for ${s} s (${mode === 'blackhole' ? 'connections frozen, new ones held' : 'connections reset, new ones refused'}).`
        : `${node} is reachable again.`,
    );
    return { node, until };
  });
}

export const cutPrimary = (seconds, options) => cut('primary', seconds, options);
export const cutReplica = (seconds, options) => cut('replica', seconds, options);

/**
 * A network partition of a node for `seconds`: every route to it and from its Patroni to etcd carries nothing
 * (blackhole). A leader cut off this way cannot renew its lock: it demotes itself, and the synchronous replica takes
 * the lock once it expires.
 */
export function partition(which, seconds) {
  return locked(async () => {
    const state = stateOrFail();
    const node = await nodeOf(state, which);
    const s = Number(seconds);
    if (!Number.isFinite(s) || s < 0) throw new ClusterError('partition', `seconds is a number >= 0 (not ${seconds})`);
    const until = Date.now() + s * 1000;
    writeControl(state, (control) => (control.partitions = { ...control.partitions, [node]: { until, mode: 'blackhole' } }));
    say(s > 0 ? `${node} is partitioned off the network for ${s} s.` : `${node} is back on the network.`);
    return { node, until };
  });
}

/**
 * Waits until the database nodes are whole again: a leader, every running node streaming from it, one of them named
 * synchronous in etcd. Returns the seconds it took.
 */
export function settle({ ms = 120_000 } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const began = performance.now();
    const running = NODES.filter((n) => patroniAlive(state, n)).length;
    await waitHealthy(state, { replicas: running - 1, ms, part: 'settle' });
    return (performance.now() - began) / 1000;
  });
}

/** Synchronous replication on or off (Patroni's synchronous_mode): off only to measure what it costs. */
export function setSynchronous(on) {
  return locked(async () => {
    const state = stateOrFail();
    await patchDcs(state, { synchronous_mode: Boolean(on) });
    // done when Patroni says so in etcd (a synchronous standby named there, or none): only a node named there may be
    // promoted, so a failover right after this must find one
    await waitFor('sync', `synchronous replication ${on ? 'on' : 'off'} in Patroni's view`, async () => {
      const members = (await patroniCluster(state))?.members ?? [];
      return members.some((m) => m.role === 'sync_standby') === Boolean(on);
    });
    say(`Synchronous replication is ${on ? 'on' : 'OFF'}.`);
  });
}

/** A backup of the leader (incremental on the last, or full). */
export function backupCommand({ full = false } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const made = await backup(state, { type: full ? 'full' : 'incr' });
    say(`Backup ${made.label} (${made.type}) of ${made.node} in ${made.seconds.toFixed(1)} s.`);
    return made;
  });
}

export function backups() {
  return locked(async () => backupInfo(stateOrFail()));
}

/** The release's `reconcile` on a database: every account's kept balance against its ledger. */
function reconcileWith(state, databaseUrl) {
  const env = { ...instanceEnv(state, 0), DATABASE_URL: databaseUrl };
  delete env.DATABASE_DIRECT_URL;
  delete env.DATABASE_READ_URL;
  const result = spawnSync(process.execPath, [path.join(state.release, 'apps/server/dist/cli.js'), 'reconcile'], { cwd: state.release, env, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

/** Every account's kept balance against its ledger, on the leader (the release's `reconcile`). */
export function reconcile() {
  return locked(async () => {
    const state = stateOrFail();
    const result = reconcileWith(state, databaseUrls(state).DATABASE_DIRECT_URL);
    say(result.output);
    return result;
  });
}

/**
 * The restore drill (docs/deployment.md): the backups and WAL archive restored to `to` on a fresh data directory,
 * checked (ledger = balances), and `inspect(url)` run on it; removed afterwards unless `keep`.
 */
export function drill({ to, keep = false, inspect } = {}) {
  return locked(async () => {
    const state = stateOrFail();
    const result = await restoreDrill(state, { to, keep, inspect, reconcile: async (u) => reconcileWith(state, u), say });
    say(
      `Restored to ${result.target} in ${result.seconds.toFixed(1)} s: ${result.settlements} withdrawals, the last at ${result.lastSettlementAt ?? '-'}; ` +
        `${result.reconciled?.output.split('\n').at(-1) ?? ''}${keep ? ` Kept: ${result.url}` : ''}`,
    );
    if (!result.reconciled?.ok) throw new ClusterError('restore drill', `the restored ledger does not agree with its balances:\n${result.reconciled?.output}`);
    return result;
  });
}

/** Rebuilds a replica from the leader, its data directory kept under former/. */
export function reinitNode(which) {
  return locked(async () => {
    const state = stateOrFail();
    if (!NODES.includes(which)) throw new ClusterError('reinit', `a node is ${NODES.join(', ')} (not ${which})`);
    await reinit(state, which, say);
    writeState(state);
  }).then(() => startNode(which));
}

// ---------------------------------------------------------------------------------------------------------------
// command line

const USAGE = `Usage: npm run cluster -- [command]

  start (default)            start the cluster (creates it under ${path.relative(root, STATE_DIR) || STATE_DIR}/ the first time)
  status [--json]            where each part runs, and whether it does; each database node's role, lag and sync
  stop [--purge]             stop everything; --purge also deletes the state directory
  clean                      the same as stop --purge
  kill-instance N            kill -9 portal instance N (1-${INSTANCES})
  start-instance N           start portal instance N again
  deploy [--release FILE]    rolling deploy: each instance in turn drained, stopped, started on the release (this
                             checkout's, or FILE: another release's tarball, e.g. the previous one to roll back to)
  rotate-keys [--finish [--now]]
                             new JWT_SECRET and ENCRYPTION_KEY, rolled out accepted, then signing with the old ones
                             accepted; --finish (once the old access tokens expired; --now at once) seals the stored
                             secrets again (cli rekey) and rolls out the new keys alone
  restart-pooler             stop PgBouncer and start it again

  A NODE is db1, db2, db3, or primary, replica, sync, async.
  kill-primary               kill -9 of the leader's postmaster: Patroni fails over by itself
  kill-node NODE             kill -9 of a node's Patroni and postmaster (a host lost)
  start-node NODE            start a node's Patroni (a former primary rejoins as a replica)
  stop-node NODE             stop a node cleanly
  stop-replica [NODE]        stop a replica (default: the one reads go to); start-replica [NODE] starts it again
  switchover [NODE]          planned: hand the lead to NODE (default: the synchronous replica)
  hold-wal NODE SECONDS      hold the leader's WAL sender to a replica (SIGSTOP) for SECONDS
  cut-primary SECONDS [--blackhole]   cut the leader off its clients for SECONDS (0: heal at once)
  cut-replica SECONDS [--blackhole]
  partition NODE SECONDS     cut a node off everything (clients, replication, etcd) for SECONDS
  sync on|off                synchronous replication on or off (off only to measure its cost)
  reinit NODE                rebuild a replica from the leader; its data directory is kept under former/

  reconcile                  every account's balance against its ledger, on the leader (exit 1 when one differs)

  backup [--full]            a backup of the leader (incremental, or full)
  backups                    the backups and the WAL archive's range
  restore-drill [--to TIME] [--keep]
                             restore to TIME (default: now) on a fresh node, check ledger = balances

Environment: CLUSTER_PORT (first port of the block, default 8090), CLUSTER_DIR (default .cluster), CLUSTER_DB_ROUTES=direct
(the benchmark: the balancer reaches the nodes' own ports, not through the TCP proxy that cuts and partitions use),
CLUSTER_ALERT_FOR=10s (Prometheus loads the alerting rules with every for: set to that; the cluster test's 5s).
Variables of the server (LOG_LEVEL, LOGIN_RATE_LIMIT, ...) set when starting are passed to the instances.`;

async function main(argv) {
  const [command = 'start', ...args] = argv;
  const flag = (name) => args.includes(name);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1] === '--to'));
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
    case 'deploy':
      await deploy({ release: option('--release') });
      break;
    case 'rotate-keys':
      await rotateKeys({ finish: flag('--finish'), now: flag('--now') });
      break;
    case 'restart-pooler':
      await restartPooler();
      break;
    case 'kill-primary':
      await killPrimary();
      break;
    case 'kill-node':
      await killNodeCommand(positional[0] ?? 'primary');
      break;
    case 'start-node':
      if (!positional[0]) throw new ClusterError('start-node', 'start-node NODE');
      await startNode(positional[0]);
      break;
    case 'stop-node':
      if (!positional[0]) throw new ClusterError('stop-node', 'stop-node NODE');
      await stopNode(positional[0]);
      break;
    case 'stop-replica':
      await stopReplica(positional[0]);
      break;
    case 'start-replica':
      await startReplica(positional[0]);
      break;
    case 'switchover':
      await switchover(positional[0]);
      break;
    case 'hold-wal': {
      if (positional.length < 2) throw new ClusterError('hold-wal', 'hold-wal NODE SECONDS');
      await holdWal(positional[0], positional[1]);
      await sleep(Number(positional[1]) * 1000);
      say('Let go.');
      break;
    }
    case 'cut-primary':
    case 'cut-replica':
      if (positional[0] === undefined) throw new ClusterError('cut', `${command} SECONDS [--blackhole]`);
      await cut(command === 'cut-primary' ? 'primary' : 'replica', positional[0], { mode: flag('--blackhole') ? 'blackhole' : 'refuse' });
      break;
    case 'partition':
      if (positional.length < 2) throw new ClusterError('partition', 'partition NODE SECONDS');
      await partition(positional[0], positional[1]);
      break;
    case 'sync':
      if (!['on', 'off'].includes(positional[0])) throw new ClusterError('sync', 'sync on|off');
      await setSynchronous(positional[0] === 'on');
      break;
    case 'reinit':
      if (!positional[0]) throw new ClusterError('reinit', 'reinit NODE');
      await reinitNode(positional[0]);
      break;
    case 'reconcile':
      if (!(await reconcile()).ok) process.exitCode = 1;
      break;
    case 'backup':
      await backupCommand({ full: flag('--full') });
      break;
    case 'backups':
      console.log(JSON.stringify(await backups(), null, 2));
      break;
    case 'restore-drill':
      await drill({ to: option('--to') ?? new Date(), keep: flag('--keep') });
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
