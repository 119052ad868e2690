// PgBouncer in front of the leader: its configuration, start and stop. Used by scripts/cluster.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FILES, STATE_DIR, logFile, MARK } from './cluster-paths.mjs';
import { poolerAuthConfig, poolerUsers } from './cluster-roles.mjs';
import {
  ClusterError,
  HOST,
  alive,
  canConnect,
  portFree,
  portOwner,
  waitFor,
  which,
  writeFileFor,
  mkdirFor,
  touchFor,
  asPostgres,
  terminate,
} from './cluster-process.mjs';

export function poolerPid() {
  try {
    const pid = Number(fs.readFileSync(FILES.poolerPid, 'utf8').trim());
    return alive(pid, MARK.pooler) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function writePoolerConfig(state) {
  // HAProxy's address of the leader: after a failover it sends new connections to the new leader and closes those
  // to the old one, so this file never changes
  const target = state.ports.dbPrimary;
  const ini = [
    "; written by scripts/cluster.mjs: PgBouncer in front of the leader (HAProxy's address of it)",
    '[databases]',
    `portal = host=${HOST} port=${target} dbname=portal`,
    '',
    '[pgbouncer]',
    `listen_addr = ${HOST}`,
    `listen_port = ${state.ports.pooler}`,
    `unix_socket_dir = ${FILES.run}`,
    "; SCRAM for every client; a role's secret is looked up in the database (never a superuser's): scripts/cluster-roles.mjs",
    ...poolerAuthConfig(),
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
    '; after the leader was unreachable, try again every second (not the default 15 s)',
    'server_login_retry = 1',
    'server_connect_timeout = 3',
    '; a client waiting for a server connection (the leader cut off, or failing over) is answered within 5 s: an error',
    '; the instance turns into 503 with Retry-After, rather than a request that hangs',
    'query_wait_timeout = 5',
    `logfile = ${logFile('pgbouncer')}`,
    `pidfile = ${FILES.poolerPid}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
  writeFileFor(FILES.poolerIni, ini, { postgres: true });
}

export async function ensurePooler(state) {
  if (poolerPid()) return false;
  const part = 'PgBouncer';
  const port = state.ports.pooler;
  // a pid file or socket left by a crash
  fs.rmSync(FILES.poolerPid, { force: true });
  for (const f of [`.s.PGSQL.${port}`, `.s.PGSQL.${port}.lock`]) fs.rmSync(path.join(FILES.run, f), { force: true });
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  mkdirFor(FILES.pooler, { postgres: true });
  writeFileFor(FILES.poolerUsers, poolerUsers(), { postgres: true, mode: 0o600 });
  touchFor(logFile('pgbouncer'), { postgres: true });
  writePoolerConfig(state);
  const [command, argv] = asPostgres(which('pgbouncer'), ['-d', '-q', FILES.poolerIni]);
  const result = spawnSync(command, argv, { cwd: STATE_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new ClusterError(part, `pgbouncer did not start: ${`${result.stdout}${result.stderr}`.trim()}`, logFile('pgbouncer'));
  await waitFor(part, 'listening', () => canConnect(port), { log: logFile('pgbouncer'), ms: 15_000 });
  state.pids.pooler = poolerPid();
  return true;
}

export async function stopPooler() {
  const pid = poolerPid();
  if (!pid) return false;
  // SIGTERM: immediate shutdown (SIGINT would wait for every client to leave)
  await terminate(pid, MARK.pooler, { ms: 10_000 });
  return true;
}
