import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { PGliteDialect, SessionLock, pgliteExecute } from './pglite-dialect.ts';

// int8 (counts, sums of integers) as a JS number on both drivers; numeric (money) stays a string on both.
pg.types.setTypeParser(20, (v) => Number(v));
// date (no time) as its 'YYYY-MM-DD' text on both drivers: a calendar day has no time zone to shift it
pg.types.setTypeParser(1082, (v) => v);

export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** the server's address (PostgreSQL only): for connections of their own, such as LISTEN */
  url?: string;
  /** Raw SQL for libraries that bring their own (pg-boss), serialised with Kysely's use of the embedded session. */
  executeSql: SqlExecutor;
  /** Connections for the metrics: the pg pool's, or PGlite's single session (busy or idle, callers waiting for it). */
  poolStats(): PoolStats;
  close(): Promise<void>;
};

export type PoolStats = { total: number; idle: number; waiting: number };

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; max?: number }
  /** dataDir undefined: in memory (tests). */
  | { kind: 'pglite'; dataDir?: string };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 });
    pool.on('error', () => {
      // an idle client lost its connection; the pool replaces it and the next query reports any real outage
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      url: options.url,
      executeSql: async (text, values) => pool.query(text, values),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  if (options.dataDir) await fs.mkdir(path.dirname(options.dataDir), { recursive: true });
  const parsers = { 1082: (v: string) => v };
  const pglite = await PGlite.create(options.dataDir ? { dataDir: options.dataDir, parsers } : { parsers });
  const lock = new SessionLock();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, lock) });
  return {
    db,
    kind: 'pglite',
    executeSql: (text, values) => lock.run(() => pgliteExecute(pglite, text, values ?? [])),
    poolStats: () => {
      const { busy, waiting } = lock.state;
      return { total: 1, idle: busy ? 0 : 1, waiting };
    },
    close: () => db.destroy(),
  };
}

export async function ping(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
