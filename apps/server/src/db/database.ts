import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { SERVER_IDENTITY_SQL, type Listener, type ServerPlace } from './notify.ts';
import { errorCause } from './outage.ts';
import { PGliteDialect, SessionLock, pgliteExecute } from './pglite-dialect.ts';

// int8 (counts, sums of integers) as a JS number on both drivers; numeric (money) stays a string on both.
pg.types.setTypeParser(20, (v) => Number(v));
// date (no time) as its 'YYYY-MM-DD' text on both drivers: a calendar day has no time zone to shift it
pg.types.setTypeParser(1082, (v) => v);

export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /**
   * The server's address for connections of their own that live in a session, such as LISTEN (PostgreSQL only):
   * the direct connection string when the pool goes through a transaction pooler.
   */
  url?: string;
  /**
   * Where to read what may come from a replica (searches, exports, reports): the replica once it has replayed every
   * write committed before this call, else the primary. The same as `db` without a replica.
   */
  reader: () => Promise<Kysely<DB>>;
  /** reads served by the replica and by the primary in its place, since the start (metrics, tests) */
  readStats(): { replica: number; primary: number };
  /** Raw SQL for libraries that bring their own (pg-boss), serialised with Kysely's use of the embedded session. */
  executeSql: SqlExecutor;
  /** Connections for the metrics: the pg pool's, or PGlite's single session (busy or idle, callers waiting for it). */
  poolStats(): PoolStats;
  /** The LISTEN connections open on this database (each adds itself), for the readiness check. */
  listeners: Set<Listener>;
  /** The embedded database's data directory as an image `open` can start from (PGlite only). */
  dumpImage?(): Promise<Blob>;
  close(): Promise<void>;
};

export type PoolStats = { total: number; idle: number; waiting: number };

export type DatabaseOptions =
  | {
      kind: 'postgres';
      /** the pool's connection string: the primary, directly or through a pooler (one address that follows the primary) */
      url: string;
      max?: number;
      /** a direct (session) connection string for LISTEN, where `url` goes through a transaction pooler */
      directUrl?: string;
      /** a streaming replica for reads that may be a moment behind */
      readUrl?: string;
    }
  /**
   * dataDir undefined: in memory (tests). image: a data directory to start from, as PGlite dumps it (the tests start
   * from one with every migration applied).
   */
  | { kind: 'pglite'; dataDir?: string; image?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = openPool(options.url, options.max ?? 10);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const replica = options.readUrl ? openReplica(options.readUrl, options.max ?? 10, pool) : undefined;
    return {
      db,
      kind: 'postgres',
      url: options.directUrl ?? options.url,
      reader: replica ? () => replica.reader(db) : () => Promise.resolve(db),
      readStats: () => replica?.stats() ?? { replica: 0, primary: 0 },
      executeSql: async (text, values) => pool.query(text, values),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listeners: new Set(),
      close: async () => {
        await replica?.close();
        await db.destroy();
      },
    };
  }
  if (options.dataDir) await fs.mkdir(path.dirname(options.dataDir), { recursive: true });
  const parsers = { 1082: (v: string) => v };
  const pglite = await PGlite.create({
    parsers,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.image ? { loadDataDir: options.image } : {}),
  });
  const lock = new SessionLock();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, lock) });
  return {
    db,
    kind: 'pglite',
    reader: () => Promise.resolve(db),
    readStats: () => ({ replica: 0, primary: 0 }),
    executeSql: (text, values) => lock.run(() => pgliteExecute(pglite, text, values ?? [])),
    poolStats: () => {
      const { busy, waiting } = lock.state;
      return { total: 1, idle: busy ? 0 : 1, waiting };
    },
    listeners: new Set(),
    dumpImage: () => lock.run(() => pglite.dumpDataDir('none')),
    close: () => db.destroy(),
  };
}

/** Milliseconds to wait for a connection before the call is answered as an outage (503). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A pg pool whose every client, idle or checked out, has its errors handled: a connection cut without a goodbye
 * (a network blip, a restarted pooler, a failover) fails the query that was on it, and never the process. A
 * connection string names one address; following the primary is the deployment's (docs/deployment.md).
 */
function openPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // pg-pool listens on idle clients only; a checked-out client (a query, a transaction, the job queue's) that
  // loses its connection emits 'error' too, which with no listener would end the process
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => {
    // an idle client lost its connection; the pool replaces it and the next query reports any real outage
  });
  return pool;
}

/** Milliseconds a read waits for the replica to catch up with the primary before it reads the primary instead. */
const REPLICA_WAIT_MS = 250;
/** After the replica failed to answer, reads go to the primary for this long before it is tried again. */
const REPLICA_REST_MS = 5000;

/**
 * The replica's pool and the rule of what may read it: read-your-writes by the primary's WAL position taken when
 * the read starts (every write committed before it, by this user or anyone, is replayed on the replica before the
 * replica serves it); a replica that lags past REPLICA_WAIT_MS, has been promoted, or is down leaves the read to
 * the primary.
 */
function openReplica(url: string, max: number, primary: pg.Pool) {
  const pool = openPool(url, max);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let restingUntil = 0;
  const stats = { replica: 0, primary: 0 };
  const replayed = async (lsn: string): Promise<boolean | null> => {
    const { rows } = await pool.query<{ caught_up: boolean | null }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught_up', [lsn]);
    return rows[0]?.caught_up ?? null;
  };
  return {
    async reader(primaryDb: Kysely<DB>): Promise<Kysely<DB>> {
      if (Date.now() < restingUntil) return (stats.primary++, primaryDb);
      // an outage of the primary is the caller's (503); one of the replica only sends the read to the primary
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      const lsn = rows[0]!.lsn;
      const deadline = Date.now() + REPLICA_WAIT_MS;
      try {
        for (;;) {
          const caughtUp = await replayed(lsn);
          // null: the replica is not in recovery (promoted, or not a replica): its data is not the primary's to trust
          if (caughtUp === null) break;
          if (caughtUp) return (stats.replica++, db);
          if (Date.now() >= deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } catch {
        restingUntil = Date.now() + REPLICA_REST_MS;
      }
      stats.primary++;
      return primaryDb;
    },
    stats: () => ({ ...stats }),
    close: () => db.destroy(),
  };
}

/**
 * Whether the database takes the app's work: reachable and not read-only (a standby, or a primary demoted by a
 * failover). Answers the reason when it does not.
 */
export async function checkDatabase(db: Kysely<DB>): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const { rows } = await sql<{ recovery: boolean }>`select pg_is_in_recovery() as recovery`.execute(db);
    return rows[0]?.recovery ? { ok: false, reason: 'the database is read-only (a standby)' } : { ok: true };
  } catch (err) {
    return { ok: false, reason: `the database cannot be reached (${errorCause(err)})` };
  }
}

/**
 * Whether every LISTEN connection is on the server that takes this instance's writes: after a failover a listener
 * left on a former primary (or on any other node) hears nothing that is committed now, so the instance is not
 * ready until it has moved. Such a listener is told to reconnect (through its address, to wherever that leads
 * now). One that is not connected yet (reconnecting after a cut) makes the instance not ready as well.
 */
export async function checkListeners(database: Database): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (database.kind !== 'postgres' || database.listeners.size === 0) return { ok: true };
  const { rows } = await sql.raw<ServerPlace>(SERVER_IDENTITY_SQL).execute(database.db);
  const writes = rows[0]!.server;
  for (const listener of database.listeners) {
    const place = await listener.place();
    if (!place) return { ok: false, reason: 'a LISTEN connection is not listening (it reconnects)' };
    if (place.recovery || place.server !== writes) {
      listener.reconnect();
      return {
        ok: false,
        reason: `a LISTEN connection is on ${place.recovery ? 'a read-only node' : 'another node than the one writes go to'}; it reconnects`,
      };
    }
  }
  return { ok: true };
}
