// The database layer of `npm run cluster`: three etcd members (the leader lock and its quorum), three PostgreSQL
// nodes each run by its Patroni (automatic failover, synchronous replication, pg_rewind of a former primary), and
// pgBackRest (WAL archive, backups, point-in-time restore). docs/deployment.md explains it; scripts/cluster.mjs
// starts and stops these parts with the rest.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  ClusterError,
  HOST,
  alive,
  asPostgres,
  cmdlineOf,
  mkdirFor,
  pgBinDir,
  portFree,
  portOwner,
  runPg,
  sleep,
  spawnDetached,
  tail,
  terminate,
  touchFor,
  waitFor,
  which,
  writeFileFor,
} from './cluster-process.mjs';
import { FILES, MEMBERS, NODES, STATE_DIR, logFile, nodeDir } from './cluster-paths.mjs';
import { PG_HBA, ROLES, roleUrl, secrets } from './cluster-roles.mjs';
import { spawnSync } from 'node:child_process';

/** Patroni's settings that every node shares (kept in etcd once the cluster exists; `patronictl edit-config` changes them). */
export const PATRONI_DCS = {
  // the leader lock lives 15 s unless renewed (every loop, 2 s); a node that cannot reach etcd for 5 s (twice in a
  // row) demotes itself, well before the lock could pass to another node
  ttl: 15,
  loop_wait: 2,
  retry_timeout: 5,
  // a primary whose PostgreSQL crashed is not restarted in place: the synchronous replica takes over at once
  primary_start_timeout: 0,
  // only the synchronous replica may be promoted: it has every acknowledged commit
  synchronous_mode: true,
  synchronous_mode_strict: false,
  synchronous_node_count: 1,
  maximum_lag_on_failover: 1024 * 1024,
  postgresql: {
    use_pg_rewind: true,
    use_slots: true,
    parameters: {
      max_connections: 200,
      max_wal_senders: 10,
      max_replication_slots: 10,
      wal_level: 'replica',
      wal_log_hints: 'on',
      wal_keep_size: '1GB',
      hot_standby: 'on',
      hot_standby_feedback: 'on',
      synchronous_commit: 'on',
      // the leader archives; a new leader also archives the earlier timeline's segments it holds (the on_role_change
      // callback below), which a killed leader may have completed but not archived. archive_mode=always would do it
      // on every replica, but pgBackRest's backup refuses it
      archive_mode: 'on',
      archive_timeout: '60s',
    },
  },
};

/** The Patroni cluster's name (its keys in etcd live under /service/<scope>). */
const scopeOf = (state) => `portal-${state.base}`;
const STANZA = 'portal';

// ---------------------------------------------------------------------------------------------------------------
// SQL and HTTP

export async function sql(port, text, { database = 'postgres', ms = 3000, values } = {}) {
  const client = new pg.Client({
    host: HOST,
    port,
    user: ROLES.superuser,
    password: secrets().superuser,
    database,
    connectionTimeoutMillis: ms,
    query_timeout: ms,
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether a node takes writes, as it answers itself: true, false (in recovery), undefined (no answer). */
export async function takesWrites(port, ms = 1500) {
  try {
    const [row] = await sql(port, 'select not pg_is_in_recovery() as w', { ms });
    return row.w;
  } catch {
    return undefined;
  }
}

/** A call to a node's Patroni REST API; a change (switchover, configuration) with the API's credentials. */
async function api(port, route, { method = 'GET', body, ms = 3000 } = {}) {
  const basic = Buffer.from(`${ROLES.patroniApi}:${secrets().patroniApi}`).toString('base64');
  const res = await fetch(`http://${HOST}:${port}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(method === 'GET' ? {} : { authorization: `Basic ${basic}` }) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(ms),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

// ---------------------------------------------------------------------------------------------------------------
// etcd

const etcdDir = (member) => path.join(FILES.etcd, member);
const etcdMark = (member) => `--data-dir ${etcdDir(member)}`;
export const etcdAlive = (state, member) => alive(state.pids[member], etcdMark(member));

function etcdArgs(state, member) {
  const { etcd } = state.ports;
  const peer = (m) => `http://${HOST}:${etcd[m].peer}`;
  return [
    '--name',
    member,
    '--data-dir',
    etcdDir(member),
    '--listen-client-urls',
    `http://${HOST}:${etcd[member].client}`,
    '--advertise-client-urls',
    `http://${HOST}:${etcd[member].client}`,
    '--listen-peer-urls',
    peer(member),
    '--initial-advertise-peer-urls',
    peer(member),
    '--initial-cluster',
    MEMBERS.map((m) => `${m}=${peer(m)}`).join(','),
    '--initial-cluster-state',
    'new',
    '--initial-cluster-token',
    scopeOf(state),
    // one machine shared with PostgreSQL and the load: a slower heartbeat than the default (100 ms, 1 s) so that a busy
    // moment does not cost the etcd leader its term
    '--heartbeat-interval',
    '250',
    '--election-timeout',
    '2500',
    '--auto-compaction-mode',
    'periodic',
    '--auto-compaction-retention',
    '1h',
    '--logger',
    'zap',
    '--log-level',
    'warn',
  ];
}

async function etcdHealthy(state, member) {
  try {
    const { json } = await api(state.ports.etcd[member].client, '/health', { ms: 2000 });
    return json?.health === 'true';
  } catch {
    return false;
  }
}

/** Starts the etcd members that are not running (a new cluster needs all three at once: the first election needs a quorum). */
export async function ensureEtcd(state) {
  const missing = MEMBERS.filter((m) => !etcdAlive(state, m));
  if (missing.length === 0) return false;
  for (const member of missing) {
    for (const port of [state.ports.etcd[member].client, state.ports.etcd[member].peer]) {
      if (!(await portFree(port))) throw new ClusterError(`etcd (${member})`, `port ${port} is in use by ${portOwner(port)}`);
    }
    fs.mkdirSync(etcdDir(member), { recursive: true, mode: 0o700 });
    const child = spawnDetached(which('etcd'), etcdArgs(state, member), { log: logFile(member) });
    state.pids[member] = child.pid;
  }
  for (const member of missing) {
    await waitFor(`etcd (${member})`, 'a healthy member (GET /health)', () => etcdHealthy(state, member), {
      log: logFile(member),
      gone: () => !etcdAlive(state, member),
      ms: 60_000,
    });
  }
  return true;
}

export async function stopEtcd(state) {
  const stopped = [];
  for (const member of MEMBERS) if (await terminate(state.pids[member], etcdMark(member), { ms: 10_000 })) stopped.push(member);
  return stopped;
}

// ---------------------------------------------------------------------------------------------------------------
// Patroni and its PostgreSQL

const patroniConfigFile = (node) => path.join(FILES.patroni, `${node}.yml`);
const patroniMark = (node) => patroniConfigFile(node);
export const patroniAlive = (state, node) => alive(state.pids[`patroni-${node}`], patroniMark(node));

/** The postmaster of a node, from its pid file, when it runs. */
export function postmasterPid(node) {
  try {
    const pid = Number(fs.readFileSync(path.join(nodeDir(node), 'postmaster.pid'), 'utf8').split('\n')[0]);
    return alive(pid, `-D ${nodeDir(node)}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** What archives a node's WAL: pgBackRest, told which data directory is this node's. */
const archiveCommand = (state, node) => `pgbackrest --config=${FILES.backrestConf} --stanza=${STANZA} --pg1-path=${nodeDir(node)} archive-push %p`;

const timelineArchiverFile = (node) => path.join(FILES.patroni, `archive-timelines-${node}.sh`);
const timelineArchiverLog = (node) => path.join(FILES.logs, 'pgbackrest', `archive-timelines-${node}.log`);

/**
 * Patroni's on_role_change callback of a node (called with the action, the new role and the cluster's name). A node
 * that has just become the leader pushes to the archive the complete segments of the earlier timelines it holds, up
 * to where each timeline ended. With archive_mode=on a replica archives nothing, so the last segments a killed leader
 * had completed but not yet archived would be missing, and a restore to a time after them would stop short.
 * pgBackRest accepts a segment it holds already with the same content; recycled files past a timeline's end (stale
 * content under a segment's name) are never pushed.
 */
function timelineArchiver(state, node) {
  const p = state.ports.nodes[node];
  const data = nodeDir(node);
  const psql = path.join(pgBinDir(), 'psql');
  return `#!/bin/sh
# written by scripts/cluster.mjs: Patroni's on_role_change callback of ${node} (scripts/cluster-db.mjs: timelineArchiver)
case "$2" in master | primary) ;; *) exit 0 ;; esac
exec >>'${timelineArchiverLog(node)}' 2>&1
say() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*"; }
# the promotion runs on after Patroni calls this: wait until the node takes writes, then read its timeline
tli=
for _ in $(seq 1 60); do
  tli=$('${psql}' -X -A -t -q -h '${FILES.run}' -p ${p.port} -U postgres -d postgres \
    -c 'select substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) where not pg_is_in_recovery()' 2>/dev/null)
  [ -n "$tli" ] && break
  sleep 1
done
[ -n "$tli" ] || { say "${node} still in recovery after 60 s: nothing archived"; exit 1; }
history='${data}/pg_wal/'"$tli.history"
[ -f "$history" ] || { say "${node} leads timeline $tli, the first: nothing earlier to archive"; exit 0; }
pushed=0
failed=0
# each line of the history: a parent timeline (decimal) and the position where it ended (hex X/Y)
for line in $(grep -v '^#' "$history" | awk 'NF >= 2 { print $1 "," $2 }'); do
  parent=$(printf '%08X' "\${line%%,*}")
  switch=\${line#*,}
  ended=$(( (0x\${switch%/*} << 8) + (0x\${switch#*/} >> 24) ))
  for file in '${data}/pg_wal/'"$parent"????????????????; do
    [ -f "$file" ] || continue
    name=\${file##*/}
    rest=\${name#????????}
    [ $(( (0x\${rest%????????} << 8) + 0x\${rest#????????} )) -lt "$ended" ] || continue
    if pgbackrest --config='${FILES.backrestConf}' --stanza=${STANZA} --pg1-path='${data}' --log-level-console=error archive-push "$file"; then
      pushed=$((pushed + 1))
      say "archived $name"
    else
      failed=$((failed + 1))
      say "could not archive $name"
    fi
  done
done
say "${node} leads timeline $tli: $pushed segments of earlier timelines archived, $failed failed"
[ "$failed" -eq 0 ]
`;
}

/**
 * A node's Patroni configuration (JSON, which is YAML). Every address other nodes use goes through the TCP proxy's
 * routes of this node (clients, replication, the REST API), and this Patroni reaches etcd through its own routes:
 * so a partition of the node can be made by cutting those routes.
 */
function patroniConfig(state, node) {
  const p = state.ports.nodes[node];
  return {
    scope: scopeOf(state),
    name: node,
    log: { level: 'INFO', format: '%(asctime)s %(levelname)s: %(message)s' },
    // reads (HAProxy's checks, status) are open; a change (switchover, restart, configuration) needs the credentials
    restapi: {
      listen: `${HOST}:${p.api}`,
      connect_address: `${HOST}:${p.apiRoute}`,
      authentication: { username: ROLES.patroniApi, password: secrets().patroniApi },
    },
    etcd3: {
      hosts: p.etcdRoutes.map((port) => `${HOST}:${port}`),
      protocol: 'http',
      // the hosts are this node's routes to the members: Patroni must not look up the members' own addresses
      use_proxies: true,
    },
    bootstrap: {
      dcs: PATRONI_DCS,
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
    },
    postgresql: {
      listen: `${HOST}:${p.port}`,
      connect_address: `${HOST}:${p.replication}`,
      data_dir: nodeDir(node),
      bin_dir: pgBinDir(),
      pgpass: path.join(FILES.run, `pgpass-${node}`),
      use_unix_socket: true,
      // the superuser's password is set at initdb, the replication role made at bootstrap (scripts/cluster-roles.mjs)
      authentication: {
        superuser: { username: ROLES.superuser, password: secrets().superuser },
        replication: { username: ROLES.replication, password: secrets().replication },
        rewind: { username: ROLES.superuser, password: secrets().superuser },
      },
      pg_hba: PG_HBA,
      parameters: {
        unix_socket_directories: FILES.run,
        archive_command: archiveCommand(state, node),
        logging_collector: 'on',
        log_directory: path.join(FILES.logs, 'postgres'),
        log_filename: `${node}.log`,
        log_rotation_age: 0,
        log_rotation_size: 0,
        log_file_mode: '0644',
        log_line_prefix: '%m [%p] %q%u@%d ',
      },
      basebackup: [{ checkpoint: 'fast' }],
      callbacks: { on_role_change: timelineArchiverFile(node) },
      // a former primary whose rewind fails is left as it is (an operator looks, then `reinit` moves it aside)
      remove_data_directory_on_rewind_failure: false,
      remove_data_directory_on_diverged_timelines: false,
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/**
 * The PostgreSQL processes of a node, running or orphaned: every one works in its data directory (their titles name
 * the cluster, which Patroni sets to its scope, the same on every node).
 */
function processesOf(node) {
  let dir;
  try {
    dir = fs.realpathSync(nodeDir(node));
  } catch {
    return [];
  }
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((pid) => {
      try {
        return cmdlineOf(pid)?.startsWith('postgres: ') && fs.readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false;
      }
    });
}

/** Removes what a crashed postmaster left (its pid file naming a process that is not it, its socket's lock). */
async function clearStale(state, node) {
  const dir = nodeDir(node);
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile) || postmasterPid(node)) return;
  const { port } = state.ports.nodes[node];
  const orphans = processesOf(node);
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

/** Starts a node's Patroni (which starts, creates or rebuilds its PostgreSQL). */
export async function startPatroni(state, node) {
  if (patroniAlive(state, node)) return false;
  const part = `Patroni (${node})`;
  const p = state.ports.nodes[node];
  await clearStale(state, node);
  if (!postmasterPid(node)) {
    for (const port of [p.port, p.api]) if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  }
  mkdirFor(FILES.patroni);
  mkdirFor(path.join(FILES.logs, 'postgres'), { postgres: true });
  // an empty directory of the postgres user's: Patroni runs initdb or clones the leader into it
  if (!fs.existsSync(nodeDir(node))) mkdirFor(nodeDir(node), { postgres: true, mode: 0o700 });
  writeFileFor(patroniConfigFile(node), `${JSON.stringify(patroniConfig(state, node), null, 2)}\n`, { postgres: true, mode: 0o600 });
  writeFileFor(timelineArchiverFile(node), timelineArchiver(state, node), { postgres: true, mode: 0o700 });
  touchFor(logFile(`patroni-${node}`), { postgres: true });
  const child = spawnDetached(which('patroni'), [patroniConfigFile(node)], {
    log: logFile(`patroni-${node}`),
    postgres: true,
    env: { ...process.env, HOME: FILES.run, PATRONI_LOG_LEVEL: 'INFO' },
  });
  state.pids[`patroni-${node}`] = child.pid;
  return true;
}

/** Stops a node's Patroni (SIGTERM: it stops its PostgreSQL cleanly, and a leader hands its lock over first). */
export async function stopPatroni(state, node, { ms = 60_000 } = {}) {
  const stopped = await terminate(state.pids[`patroni-${node}`], patroniMark(node), { ms });
  // a postmaster left behind (Patroni killed) is stopped as well
  if (postmasterPid(node)) runPg(node, 'pg_ctl', ['-D', nodeDir(node), '-m', 'fast', '-w', '-t', '60', 'stop'], { cwd: STATE_DIR });
  return stopped;
}

/** kill -9 of a node's Patroni and its postmaster: the host is gone. */
export function killNode(state, node) {
  const killed = [];
  for (const [what, pid] of [
    ['Patroni', patroniAlive(state, node) ? state.pids[`patroni-${node}`] : undefined],
    ['postmaster', postmasterPid(node)],
  ]) {
    if (!pid) continue;
    process.kill(pid, 'SIGKILL');
    killed.push(`${what} (pid ${pid})`);
  }
  return killed;
}

/** The cluster as Patroni sees it (GET /cluster on the first member that answers): members, leader, sync standby, lag. */
export async function patroniCluster(state) {
  for (const node of NODES) {
    if (!patroniAlive(state, node)) continue;
    try {
      const { status, json } = await api(state.ports.nodes[node].api, '/cluster', { ms: 2000 });
      if (status === 200 && json?.members) return json;
    } catch {
      // the next one
    }
  }
  return undefined;
}

/** The node that holds the leader lock and takes writes, as its Patroni and its PostgreSQL both say, or undefined. */
export async function leader(state) {
  for (const node of NODES) {
    try {
      const { status } = await api(state.ports.nodes[node].api, '/primary', { ms: 1500 });
      if (status === 200 && (await takesWrites(state.ports.nodes[node].port)) === true) return node;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Waits until a leader takes writes and `replicas` nodes stream from it (one of them synchronous when any). */
export async function waitHealthy(state, { replicas = NODES.length - 1, ms = 120_000, part = 'Patroni' } = {}) {
  let found;
  await waitFor(
    part,
    `a leader and ${replicas} streaming replicas (one synchronous)`,
    async () => {
      found = await leader(state);
      if (!found) return false;
      if (replicas === 0) return true;
      const rows = await sql(state.ports.nodes[found].port, "select sync_state from pg_stat_replication where state = 'streaming'").catch(() => []);
      if (rows.length < replicas || !rows.some((r) => r.sync_state === 'sync')) return false;
      // and named in etcd: only a node named there may be promoted
      return Boolean((await patroniCluster(state))?.members?.some((m) => m.role === 'sync_standby'));
    },
    { ms, log: logFile(`patroni-${NODES[0]}`), gone: () => NODES.every((n) => !patroniAlive(state, n)) },
  );
  return found;
}

/**
 * The nodes for `status`: each one's role as its PostgreSQL answers it, its postmaster, its lag behind the leader in
 * bytes (from the leader's pg_stat_replication) and whether it is the synchronous replica.
 */
export async function nodesStatus(state) {
  const lead = await leader(state);
  const replication = lead
    ? await sql(
        state.ports.nodes[lead].port,
        `select application_name as name, sync_state, state, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint as lag
           from pg_stat_replication`,
      ).catch(() => [])
    : [];
  const dcs = await patroniCluster(state);
  return Promise.all(
    NODES.map(async (node) => {
      const p = state.ports.nodes[node];
      const pid = postmasterPid(node) ?? null;
      const writes = pid ? await takesWrites(p.port) : undefined;
      const row = replication.find((r) => r.name === node);
      const member = dcs?.members?.find((m) => m.name === node);
      return {
        name: node,
        role: writes === undefined ? (pid ? 'not answering' : 'down') : writes ? 'primary' : 'replica',
        pid,
        port: p.port,
        lagBytes: node === lead ? 0 : row ? Number(row.lag ?? 0) : null,
        sync: row?.sync_state === 'sync',
        leader: node === lead,
        patroni: {
          pid: state.pids[`patroni-${node}`] ?? null,
          alive: patroniAlive(state, node),
          state: member?.state ?? null,
          timeline: member?.timeline ?? null,
        },
        dataDir: nodeDir(node),
      };
    }),
  );
}

/** A planned switchover to `to` (or to the synchronous replica): Patroni stops the leader cleanly, nothing is lost. */
export async function switchover(state, to) {
  const from = await leader(state);
  if (!from) throw new ClusterError('switchover', 'there is no leader to hand over from');
  // only a synchronous replica may take over: wait for Patroni to name one (after a failover it takes a loop or two)
  let candidate = to;
  await waitFor(
    'switchover',
    'a synchronous replica named in etcd',
    async () => {
      const members = (await patroniCluster(state))?.members ?? [];
      candidate = to ?? members.find((m) => m.role === 'sync_standby')?.name;
      return Boolean(candidate && members.some((m) => m.name === candidate && (m.role === 'sync_standby' || to)));
    },
    { ms: 30_000 },
  );
  if (candidate === from) throw new ClusterError('switchover', `${candidate} is the leader already`);
  const { status, text } = await api(state.ports.nodes[from].api, '/switchover', { method: 'POST', body: { leader: from, candidate }, ms: 60_000 });
  if (status !== 200) throw new ClusterError('switchover', `Patroni refused (${status}): ${text.trim()}`);
  return { from, to: candidate };
}

/** Patroni's shared settings, changed in etcd (PATCH /config): every node takes them within a loop. */
export async function patchDcs(state, patch) {
  const node = await leader(state);
  if (!node) throw new ClusterError('config', 'there is no leader to change the settings through');
  const { status, text } = await api(state.ports.nodes[node].api, '/config', { method: 'PATCH', body: patch });
  if (status !== 200) throw new ClusterError('config', `Patroni refused (${status}): ${text.trim()}`);
}

/**
 * Rebuilds a replica from the leader: its Patroni is stopped, its data directory moved aside (kept under former/, never
 * deleted: a former primary may hold the only copy of something), and Patroni started again clones the leader.
 */
export async function reinit(state, node, say) {
  const lead = await leader(state);
  if (!lead) throw new ClusterError('reinit', 'there is no leader to clone from');
  if (lead === node) throw new ClusterError('reinit', `${node} is the leader: switch over first`);
  await stopPatroni(state, node);
  if (fs.existsSync(nodeDir(node))) {
    mkdirFor(FILES.former);
    const kept = path.join(FILES.former, `${node}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    fs.renameSync(nodeDir(node), kept);
    say(`${node}'s data directory moved to ${kept}.`);
  }
  await startPatroni(state, node);
}

// ---------------------------------------------------------------------------------------------------------------
// pgBackRest

function writeBackrestConfig() {
  mkdirFor(FILES.backrest, { postgres: true });
  mkdirFor(FILES.backups, { postgres: true, mode: 0o750 });
  mkdirFor(path.join(FILES.logs, 'pgbackrest'), { postgres: true });
  mkdirFor(path.join(FILES.run, 'pgbackrest'), { postgres: true });
  const conf = [
    '# written by scripts/cluster.mjs: one repository on this machine; each command names the node it works on',
    '[global]',
    `repo1-path=${FILES.backups}`,
    'repo1-retention-full=2',
    'compress-type=lz4',
    'start-fast=y',
    `log-path=${path.join(FILES.logs, 'pgbackrest')}`,
    `lock-path=${path.join(FILES.run, 'pgbackrest')}`,
    'log-level-console=warn',
    'log-level-file=info',
    '',
    `[${STANZA}]`,
    `pg1-socket-path=${FILES.run}`,
    'pg1-user=postgres',
    '',
  ].join('\n');
  writeFileFor(FILES.backrestConf, conf, { postgres: true, mode: 0o640 });
}

/** Runs pgBackRest (as the postgres user) on the node `node` (none: the repository only); returns its output, throws with it on failure. */
function backrest(state, node, command, args = [], { ms = 600_000 } = {}) {
  const pgOptions = node ? [`--pg1-path=${nodeDir(node)}`, `--pg1-port=${state.ports.nodes[node].port}`] : [];
  const [program, argv] = asPostgres(which('pgbackrest'), [`--config=${FILES.backrestConf}`, `--stanza=${STANZA}`, ...pgOptions, ...args, command]);
  const result = spawnSync(program, argv, { cwd: '/', encoding: 'utf8', timeout: ms });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0) {
    throw new ClusterError(
      'pgBackRest',
      `pgbackrest ${command} failed (exit ${result.status}):\n${output}`,
      path.join(FILES.logs, 'pgbackrest', `${STANZA}-${command}.log`),
    );
  }
  return output;
}

/** Switches the leader `lead` to a new WAL segment and waits until the one it closed is in the repository's archive. */
async function switchAndArchive(state, lead, ms = 120_000) {
  const [{ f: segment }] = await sql(state.ports.nodes[lead].port, 'select pg_walfile_name(pg_switch_wal()) as f');
  const position = (name) => name.slice(8);
  await waitFor(
    'pgBackRest',
    `WAL segment ${segment} archived`,
    async () => {
      const archives = repositoryInfo(state)[0]?.archive ?? [];
      return archives.some((a) => a.max && position(a.max) >= position(segment));
    },
    { ms, log: path.join(FILES.logs, 'postgres', `${lead}.log`) },
  );
}

const repositoryInfo = (state) => JSON.parse(backrest(state, undefined, 'info', ['--output=json']));

/** The repository and the stanza (once), then a full backup when there is none yet. */
export async function ensureBackups(state, say) {
  writeBackrestConfig();
  const lead = await leader(state);
  if (!lead) throw new ClusterError('pgBackRest', 'there is no leader to back up');
  if (!fs.existsSync(path.join(FILES.backups, 'backup', STANZA, 'backup.info'))) {
    backrest(state, lead, 'stanza-create');
  }
  const info = repositoryInfo(state);
  if ((info[0]?.backup ?? []).length === 0) {
    say('Taking the first full backup (pgBackRest)...');
    return backup(state, { type: 'full' });
  }
  return undefined;
}

/** A backup of the leader (full, or incremental on the last one); returns its label and how long it took. */
export async function backup(state, { type = 'incr' } = {}) {
  const lead = await leader(state);
  if (!lead) throw new ClusterError('pgBackRest', 'there is no leader to back up');
  const began = performance.now();
  backrest(state, lead, 'backup', [`--type=${type}`]);
  // and the segment after it, so that a restore to any time before now finds its WAL
  await switchAndArchive(state, lead);
  const info = repositoryInfo(state);
  const last = info[0]?.backup?.at(-1);
  return { node: lead, type: last?.type ?? type, label: last?.label, seconds: (performance.now() - began) / 1000 };
}

/** What the repository holds: backups (label, type, start and stop times) and the WAL archive's range. */
export async function backupInfo(state) {
  const [info] = repositoryInfo(state);
  return {
    backups: (info?.backup ?? []).map((b) => ({
      label: b.label,
      type: b.type,
      start: new Date(b.timestamp.start * 1000).toISOString(),
      stop: new Date(b.timestamp.stop * 1000).toISOString(),
    })),
    archive: (info?.archive ?? []).map((a) => ({ min: a.min, max: a.max })),
    status: info?.status?.message,
  };
}

/**
 * The restore drill: the repository restored to a point in time onto a fresh data directory (not a node of the
 * cluster), started there on its own port until recovery reaches the time and promotes, then checked: every
 * account's kept balance against its ledger (the release's `reconcile`), and whatever `inspect(url)` looks at. The
 * node is stopped and removed afterwards unless `keep`.
 */
export async function restoreDrill(state, { to = new Date(), keep = false, inspect, reconcile, say = () => undefined } = {}) {
  const lead = await leader(state);
  if (!lead) throw new ClusterError('restore drill', 'there is no leader (the archive must be pushed up to the target first)');
  const target = new Date(to);
  if (Number.isNaN(target.getTime())) throw new ClusterError('restore drill', `not a time: ${to}`);
  const leadPort = state.ports.nodes[lead].port;
  // a commit after the target, then the current WAL segment archived: recovery finds the end of its target there
  if (Date.now() <= target.getTime()) await sleep(target.getTime() - Date.now() + 50);
  await sql(leadPort, 'select txid_current()');
  await switchAndArchive(state, lead);
  const dir = path.join(FILES.drill, 'pgdata');
  const port = state.ports.drill;
  await stopDrill(dir);
  fs.rmSync(FILES.drill, { recursive: true, force: true });
  mkdirFor(FILES.drill, { postgres: true, mode: 0o700 });
  mkdirFor(dir, { postgres: true, mode: 0o700 });
  const began = performance.now();
  const stamp = target.toISOString().replace('T', ' ').replace('Z', '+00');
  say(`Restoring the repository to ${stamp} into ${dir}...`);
  const [program, argv] = asPostgres(which('pgbackrest'), [
    `--config=${FILES.backrestConf}`,
    `--stanza=${STANZA}`,
    `--pg1-path=${dir}`,
    '--type=time',
    `--target=${stamp}`,
    '--target-action=promote',
    '--archive-mode=off',
    'restore',
  ]);
  const restored = spawnSync(program, argv, { cwd: '/', encoding: 'utf8', timeout: 600_000 });
  if (restored.status !== 0) throw new ClusterError('restore drill', `pgbackrest restore failed:\n${`${restored.stdout}${restored.stderr}`.trim()}`);
  if (!(await portFree(port))) throw new ClusterError('restore drill', `port ${port} is in use by ${portOwner(port)}`);
  // the restored configuration is the node's (Patroni's): this copy gets its own port, files and no replication
  const options = [
    `-c port=${port}`,
    `-c listen_addresses=${HOST}`,
    `-c unix_socket_directories=${FILES.drill}`,
    `-c hba_file=${dir}/pg_hba.conf`,
    `-c ident_file=${dir}/pg_ident.conf`,
    "-c synchronous_standby_names=''",
    '-c archive_mode=off',
    "-c primary_conninfo=''",
    '-c logging_collector=off',
    '-c cluster_name=portal-drill',
    '-c hot_standby=on',
  ].join(' ');
  touchFor(logFile('drill'), { postgres: true });
  runPg('restore drill', 'pg_ctl', ['-D', dir, '-l', logFile('drill'), '-o', options, '-w', '-t', '120', 'start'], { log: logFile('drill'), cwd: STATE_DIR });
  try {
    // a recovery that runs out of WAL before its target stops the server (FATAL): said at once, with its log
    await waitFor('restore drill', 'recovery to reach its target and promote', async () => (await takesWrites(port)) === true, {
      ms: 300_000,
      log: logFile('drill'),
      gone: () => !fs.existsSync(path.join(dir, 'postmaster.pid')),
    }).catch((err) => {
      throw new ClusterError('restore drill', `${err.message}:\n${tail(logFile('drill'), 12)}`, logFile('drill'));
    });
    const seconds = (performance.now() - began) / 1000;
    const url = roleUrl('superuser', port);
    const [last] = await sql(port, 'select max(created_at) as at, count(*)::int as n from settlements', { database: 'portal', ms: 30_000 });
    const checks = { target: target.toISOString(), seconds, settlements: last.n, lastSettlementAt: last.at ? new Date(last.at).toISOString() : null };
    const reconciled = reconcile ? await reconcile(url) : undefined;
    const inspected = inspect ? await inspect(url) : undefined;
    return { ...checks, url, dataDir: dir, reconciled, inspected, kept: keep };
  } finally {
    if (!keep) {
      await stopDrill(dir);
      fs.rmSync(FILES.drill, { recursive: true, force: true });
    }
  }
}

async function stopDrill(dir) {
  if (!fs.existsSync(path.join(dir, 'postmaster.pid'))) return;
  try {
    runPg('restore drill', 'pg_ctl', ['-D', dir, '-m', 'immediate', '-w', '-t', '30', 'stop'], { cwd: STATE_DIR });
  } catch {
    // not running
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the leader's archiver, held (a stalled archive: segments complete on the leader and its replicas, not archived)

/** SIGSTOP of the leader's archiver until `release()` (SIGCONT) or `kill()` (SIGKILL, once its postmaster is gone). */
export async function holdArchiver(state) {
  const lead = await leader(state);
  if (!lead) throw new ClusterError('hold-archiver', 'there is no leader');
  const pid = processesOf(lead).find((p) => /^postgres: [^:]+: archiver/.test(cmdlineOf(p) ?? ''));
  if (!pid) throw new ClusterError('hold-archiver', `${lead} has no archiver process`);
  const signal = (name) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone
    }
  };
  signal('SIGSTOP');
  return { pid, leader: lead, release: () => signal('SIGCONT'), kill: () => signal('SIGKILL') };
}

// ---------------------------------------------------------------------------------------------------------------
// the WAL sender of a replica, held (a slow network, a stalled host) for a while

/** SIGSTOP of the leader's WAL sender process for `replica` for `seconds` (then SIGCONT); returns its pid. */
export async function holdWalSender(state, replica, seconds) {
  const lead = await leader(state);
  if (!lead) throw new ClusterError('hold-wal', 'there is no leader');
  const [row] = await sql(state.ports.nodes[lead].port, 'select pid from pg_stat_replication where application_name = $1', { values: [replica] });
  if (!row) throw new ClusterError('hold-wal', `${replica} does not stream from ${lead}`);
  process.kill(row.pid, 'SIGSTOP');
  const timer = setTimeout(() => {
    try {
      process.kill(row.pid, 'SIGCONT');
    } catch {
      // gone
    }
  }, seconds * 1000);
  return {
    pid: row.pid,
    leader: lead,
    release() {
      clearTimeout(timer);
      try {
        process.kill(row.pid, 'SIGCONT');
      } catch {
        // gone
      }
    },
  };
}
