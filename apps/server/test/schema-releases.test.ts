import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { RELEASE_MIGRATIONS, migrateToLatest } from '../src/db/migrate.ts';
import { openRuntime } from '../src/runtime.ts';
import { databaseEnv, newKeys } from './cli-process.ts';
import { DATABASES, migratedDatabase } from './harness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration works on any schema */
const migration = (statement: string): Migration => ({
  up: (db: Kysely<any>) =>
    sql
      .raw(statement)
      .execute(db)
      .then(() => undefined),
});

/** The next release's migrations: this one's, and one more. */
const nextRelease = (name: string, statement: string) => ({ ...RELEASE_MIGRATIONS, [name]: migration(statement) });

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: 'false', ...env });

describe.each(DATABASES)('releases and the schema on %s', (kind) => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  /** A database this release migrated, then the next release's migration applied to it (its migrate step). */
  async function migratedByNextRelease(name: string, statement: string) {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const env = { ...where.env, ...newKeys() };
    const { database } = await openRuntime(config(env));
    expect(await migrateToLatest(database.db, { migrations: nextRelease(name, statement) })).toEqual([name]);
    await database.close();
    return env;
  }

  it('rolls back: this release starts on the schema of the next one when its migrations only added (expand), migrating or not', async () => {
    const env = await migratedByNextRelease('9001-ledger-note-expand', 'alter table ledger_entries add column next_release_note text');
    for (const migrate of [false, true]) {
      const { database, migrated, newer } = await openRuntime(config(env), { migrate });
      try {
        expect({ migrated, newer }).toEqual({ migrated: [], newer: ['9001-ledger-note-expand'] });
        // and it reads and writes what it knows
        expect(await database.db.selectFrom('partners').select('id').execute()).toEqual([]);
      } finally {
        await database.close();
      }
    }
  });

  it('refuses, in words, a schema the next release contracted (a migration named -contract), migrating or not', async () => {
    const env = await migratedByNextRelease('9002-drop-legacy-contract', 'create table legacy_gone (id int)');
    for (const migrate of [false, true]) {
      const refused = await openRuntime(config(env), { migrate }).then(
        async ({ database }) => void (await database.close()),
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toBe(
        "The database's schema is of a newer release that removed what this one reads (9002-drop-legacy-contract): run that release or a newer one",
      );
    }
  });

  it('an instance that does not migrate refuses a schema its release has not been migrated to, naming what is pending', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const refused = await openRuntime(config({ ...where.env, ...newKeys() }), { migrate: false }).then(
      async ({ database }) => void (await database.close()),
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    // every migration of the release, the first and the last named
    const last = Object.keys(RELEASE_MIGRATIONS).at(-1)!;
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^The database needs migrations this release brings \\(0001-core, 0002-auth, .*${last}\\): run \`cli migrate\` as the role that owns the schema first`,
      ),
    );
  });
});

describe('when a server migrates', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: newKeys().JWT_SECRET, ENCRYPTION_KEY: newKeys().ENCRYPTION_KEY, SMTP_URL: 'smtp://127.0.0.1:25' };
  it('at start by default, but in production with PostgreSQL, where `cli migrate` is a release step of its own', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).migrateAtStart).toBe(true);
    expect(loadConfig({ ...production }).migrateAtStart).toBe(true);
    expect(loadConfig({ ...production, DATABASE_URL: 'postgres://app@db/portal' }).migrateAtStart).toBe(false);
    expect(loadConfig({ ...production, DATABASE_URL: 'postgres://app@db/portal', MIGRATE_AT_START: 'true' }).migrateAtStart).toBe(true);
  });
});

describe.runIf(DATABASES.includes('postgres'))('a migration behind a long read on PostgreSQL', () => {
  /**
   * A migrated database with a long read open on ledger_entries (a report, a pg_dump: its lock held for seconds);
   * `end` commits the read.
   */
  async function behindLongRead(test: (database: Database, end: () => Promise<unknown>) => Promise<void>) {
    const database = await migratedDatabase('postgres');
    const long = new pg.Client({ connectionString: await currentUrl(database.db) });
    await long.connect();
    try {
      await long.query('begin');
      await long.query('select count(*) from ledger_entries');
      await test(database, () => long.query('commit'));
    } finally {
      await long.end();
      await database.close();
    }
  }

  it('waits at most its lock timeout at a time, so reads of the table are never held behind it; it applies once the read ends', () =>
    behindLongRead(async (database, end) => {
      const applying = migrateToLatest(database.db, {
        migrations: nextRelease('9003-ledger-flag-expand', 'alter table ledger_entries add column next_release_flag boolean'),
        lockTimeoutMs: 200,
        pauseMs: 100,
        attempts: 100,
      });
      const waits: number[] = [];
      const until = Date.now() + 2500;
      while (Date.now() < until) {
        const at = performance.now();
        await sql`select count(*) from ledger_entries`.execute(database.db);
        waits.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await end();
      expect(await applying).toEqual(['9003-ledger-flag-expand']);
      // without the lock timeout every read queued behind the waiting change until the long read ended (2.5 s)
      expect(Math.max(...waits)).toBeLessThan(1000);
      expect(waits.length).toBeGreaterThan(5);
    }));

  it('gives up after its attempts with the lock error, having changed nothing', () =>
    behindLongRead(async (database, end) => {
      const failed = await migrateToLatest(database.db, {
        migrations: nextRelease('9004-ledger-other-expand', 'alter table ledger_entries add column other_flag boolean'),
        lockTimeoutMs: 100,
        pauseMs: 50,
        attempts: 3,
      }).catch((err: unknown) => err);
      expect((failed as { code?: string }).code).toBe('55P03');
      await end();
      const applied = await sql<{ name: string }>`select name from kysely_migration where name like '9004%'`.execute(database.db);
      expect(applied.rows).toEqual([]);
    }));
});

/** The test server's address of the database `db` is connected to. */
async function currentUrl(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}
