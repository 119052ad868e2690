import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import type { Keys } from '../src/lib/keys.ts';
import type { Mail, Mailer } from '../src/lib/mailer.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Integration tests run on the embedded database always and on a real PostgreSQL server when TEST_DATABASE_URL is set. */
export const DATABASES: DatabaseKind[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/** A fresh, empty database: in-memory PGlite, or a new database on the test server that is dropped on close. */
export async function freshDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite' });
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export const testKeys = (): Keys => ({ jwtSecret: crypto.randomBytes(32), encryptionKey: crypto.randomBytes(32) });

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: '/nonexistent-test-data', WEB_DIST: '/nonexistent-web-dist', LOG_LEVEL: 'silent', ...overrides });
}

/** Collects mail instead of sending it, for tests that read what was sent. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return { sent, send: async (mail) => void sent.push(mail) };
}

export type TestContext = {
  app: App;
  database: Database;
  keys: Keys;
  mailer: ReturnType<typeof memoryMailer>;
  close(): Promise<void>;
};

/** A migrated database with the demo data and an app over it. */
export async function setup(
  kind: DatabaseKind,
  options: { seed?: boolean; config?: Record<string, string>; extend?: (app: App) => void } = {},
): Promise<TestContext> {
  const database = await freshDatabase(kind);
  await migrateToLatest(database.db);
  const keys = testKeys();
  if (options.seed !== false) await seedDemo(database.db, keys.encryptionKey);
  const mailer = memoryMailer();
  const app = await buildApp({ config: testConfig(options.config), database, keys, mailer });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    keys,
    mailer,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
