// Who may do what in the cluster, and with which secret: the database's roles, its client authentication
// (pg_hba), PgBouncer's, and HAProxy's statistics page. Used by scripts/cluster.mjs and scripts/cluster-db.mjs.
//
//   postgres         superuser: Patroni, pgBackRest and the operator; over TCP with its password, on the socket only
//                    as the OS user postgres (peer)
//   replicator       streaming replication only (Patroni creates it at bootstrap)
//   portal_migrator  owns the database and its schemas: the release's migrations and pg-boss's schema (`cli migrate`)
//   portal_app       the instances: reads and writes rows, nothing else (no DDL, not an owner, not a superuser),
//                    with bounds on a statement, a lock wait and an idle transaction
//   pgbouncer_auth   PgBouncer's lookup of a client's SCRAM secret (one function; never a superuser's)
//   portal_monitor   the PostgreSQL exporters: the statistics views and settings (pg_monitor), no table's rows
import crypto from 'node:crypto';
import fs from 'node:fs';
import { FILES } from './cluster-paths.mjs';
import { HOST } from './cluster-process.mjs';

export const ROLES = {
  superuser: 'postgres',
  replication: 'replicator',
  migrator: 'portal_migrator',
  app: 'portal_app',
  poolerAuth: 'pgbouncer_auth',
  /** the PostgreSQL exporters (pg_monitor: statistics and settings, no rows) */
  monitor: 'portal_monitor',
  /** PgBouncer's admin console (SHOW, PAUSE, RELOAD): a user of PgBouncer's own, not of the database */
  poolerAdmin: 'pgbouncer_admin',
  /** HAProxy's statistics page */
  stats: 'ops',
  /** the changes of Patroni's REST API (switchover, restart, configuration); its reads are open (HAProxy's checks) */
  patroniApi: 'patroni',
};

/**
 * The bounds of the app's role (ALTER ROLE ... SET): a statement that runs past 30 s is cancelled (the API answers
 * every call within 10 s; a report or export builds in the job queue, whose slowest step is far below), a lock
 * waited for past 5 s gives up, a transaction left idle for 30 s is ended with its connection. Each failure is an
 * outage to the server (503 with Retry-After), never a hang.
 */
export const APP_ROLE_SETTINGS = { statement_timeout: '30s', lock_timeout: '5s', idle_in_transaction_session_timeout: '30s' };

/** The secrets of the cluster's roles and consoles: made once, kept in roles.json (mode 600), never given to an instance. */
export function secrets() {
  const saved = fs.existsSync(FILES.roles) ? JSON.parse(fs.readFileSync(FILES.roles, 'utf8')) : {};
  const missing = Object.keys(ROLES).filter((name) => !saved[name]);
  for (const name of missing) saved[name] = crypto.randomBytes(24).toString('base64url');
  if (missing.length) fs.writeFileSync(FILES.roles, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  return saved;
}

/** A connection string of a role (its password from roles.json). */
export function roleUrl(role, port, database = 'portal') {
  return `postgres://${ROLES[role]}:${secrets()[role]}@${HOST}:${port}/${database}`;
}

/** Client authentication on every node: SCRAM over TCP for every role; on the socket, only the OS user postgres. */
export const PG_HBA = ['local all postgres peer', `host replication ${ROLES.replication} ${HOST}/32 scram-sha-256`, `host all all ${HOST}/32 scram-sha-256`];

const literal = (value) => `'${String(value).replaceAll("'", "''")}'`;

/**
 * The roles, as the superuser on the leader (each start: a password or a bound changed in this file is applied),
 * before the database is created. The replication role is Patroni's (made at bootstrap).
 */
export function rolesSql() {
  const s = secrets();
  const login = (role) => `
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = ${literal(ROLES[role])}) then create role ${ROLES[role]}; end if;
    end $$;
    alter role ${ROLES[role]} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${literal(s[role])};`;
  return [
    login('migrator'),
    login('app'),
    login('poolerAuth'),
    login('monitor'),
    `grant pg_monitor to ${ROLES.monitor};`,
    ...Object.entries(APP_ROLE_SETTINGS).map(([name, value]) => `alter role ${ROLES.app} set ${name} = ${literal(value)};`),
  ].join('\n');
}

/**
 * In the portal database, as the superuser: only the two roles connect; what the migrator creates the app may read
 * and write (default privileges), never alter; and PgBouncer's lookup function, which answers the SCRAM secret of a
 * role that is not a superuser, to pgbouncer_auth alone.
 */
export function databaseSql() {
  const { app, migrator, poolerAuth } = ROLES;
  return `
    revoke all on database portal from public;
    grant connect, temporary on database portal to ${app};
    grant connect on database portal to ${poolerAuth};
    alter default privileges for role ${migrator} grant usage on schemas to ${app};
    alter default privileges for role ${migrator} grant select, insert, update, delete on tables to ${app};
    alter default privileges for role ${migrator} grant usage, select, update on sequences to ${app};
    grant usage on schema public to ${app};
    create schema if not exists pgbouncer;
    revoke all on schema pgbouncer from public;
    create or replace function pgbouncer.user_lookup(in i_username text, out uname text, out phash text) returns record
      language sql security definer set search_path = pg_catalog
      as $$ select usename::text, passwd::text from pg_shadow where usename = i_username and not usesuper $$;
    revoke all on function pgbouncer.user_lookup(text) from public;
    grant usage on schema pgbouncer to ${poolerAuth};
    grant execute on function pgbouncer.user_lookup(text) to ${poolerAuth};`;
}

/** PgBouncer's authentication: SCRAM for clients, each role's secret looked up through pgbouncer_auth. */
export function poolerAuthConfig() {
  return [
    'auth_type = scram-sha-256',
    `auth_file = ${FILES.poolerUsers}`,
    `auth_user = ${ROLES.poolerAuth}`,
    'auth_query = SELECT uname, phash FROM pgbouncer.user_lookup($1)',
    `admin_users = ${ROLES.poolerAdmin}`,
    `stats_users = ${ROLES.poolerAdmin}`,
  ];
}

/** PgBouncer's own users: the lookup role (to log in for auth_query) and the admin console's. */
export function poolerUsers() {
  const s = secrets();
  return [`"${ROLES.poolerAuth}" "${s.poolerAuth}"`, `"${ROLES.poolerAdmin}" "${s.poolerAdmin}"`, ''].join('\n');
}
