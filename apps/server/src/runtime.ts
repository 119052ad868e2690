import path from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { loadKeys, type Keys } from './lib/keys.ts';

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else embedded under DATA_DIR) and migrates it. */
export async function openRuntime(config: Config): Promise<{ database: Database; keys: Keys; migrated: string[] }> {
  const keys = await loadKeys(config);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
  );
  try {
    const migrated = await migrateToLatest(database.db);
    return { database, keys, migrated };
  } catch (err) {
    await database.close();
    throw err;
  }
}
