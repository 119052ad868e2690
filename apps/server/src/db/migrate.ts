/* eslint-disable @typescript-eslint/no-explicit-any -- the migrator works on any schema */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as core from './migrations/0001-core.ts';
import * as auth from './migrations/0002-auth.ts';
import * as partnerSettings from './migrations/0003-partner-settings.ts';
import * as transactions from './migrations/0004-transactions.ts';
import * as reportJobs from './migrations/0005-report-jobs.ts';
import * as searchIndexes from './migrations/0006-search-indexes.ts';

/** Migrations are imported statically, so that the set is fixed at build time and identical on every database. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-core': core,
  '0002-auth': auth,
  '0003-partner-settings': partnerSettings,
  '0004-transactions': transactions,
  '0005-report-jobs': reportJobs,
  '0006-search-indexes': searchIndexes,
};

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return MIGRATIONS;
  }
}

export function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: new StaticProvider() });
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrationStatus(db: Kysely<any>): Promise<{ applied: number; pending: number }> {
  const all = await migrator(db).getMigrations();
  const applied = all.filter((m) => m.executedAt !== undefined).length;
  return { applied, pending: all.length - applied };
}

export const MIGRATION_COUNT = Object.keys(MIGRATIONS).length;
