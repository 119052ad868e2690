import path from 'node:path';
import { ConfigError, type Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { applyMigrations, checkSchema, SchemaError } from './db/migrate.ts';
import { verifyKeys } from './lib/key-check.ts';
import { loadKeys, type Keys } from './lib/keys.ts';

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else embedded under DATA_DIR), brings its schema
 * to this release's or checks that it is one this release runs on (`migrate`: the operator's CLI, and a server
 * with MIGRATE_AT_START; in production with PostgreSQL the migrations are a release step of their own, `cli
 * migrate`), and checks that the keys are the ones it was created with (writing their check values on its first
 * start). A key that does not match throws KeyMismatchError (a ConfigError naming the variable); a schema this
 * release cannot run on, a ConfigError.
 */
export async function openRuntime(
  config: Config,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<{ database: Database; keys: Keys; migrated: string[]; newer: string[] }> {
  const keys = await loadKeys(config);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, directUrl: config.DATABASE_DIRECT_URL, readUrl: config.DATABASE_READ_URL }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
  );
  // the migrator's lock is a session advisory lock: behind a transaction pooler its lock and unlock could land on two
  // server connections, so migrations take the direct (session) connection when there is one
  const direct =
    migrate && config.DATABASE_URL && config.DATABASE_DIRECT_URL
      ? await openDatabase({ kind: 'postgres', url: config.DATABASE_DIRECT_URL, max: 1 })
      : undefined;
  try {
    const schema = migrate ? applyMigrations((direct ?? database).db) : checkSchema(database.db).then((newer) => ({ migrated: [], newer }));
    const { migrated, newer } = await schema
      .catch((err: unknown) => {
        if (err instanceof SchemaError) throw new ConfigError(err.message);
        // insufficient_privilege: this role (a deployment's app role) may not change the schema, and the release
        // needs a change the migrator has not made yet
        if ((err as { code?: unknown }).code === '42501')
          throw new ConfigError(
            "The database needs migrations this release brings, and DATABASE_URL's role may not make them: run `cli migrate` with the database address of the role that owns the schema first (docs/deployment.md)",
          );
        throw err;
      })
      .finally(() => direct?.close());
    const keysFile = path.join(config.dataDir, 'keys.json');
    await verifyKeys(database.db, keys, {
      JWT_SECRET: config.JWT_SECRET ? 'the environment' : keysFile,
      ENCRYPTION_KEY: config.ENCRYPTION_KEY ? 'the environment' : keysFile,
    });
    return { database, keys, migrated, newer };
  } catch (err) {
    await database.close();
    throw err;
  }
}
