import { CompiledQuery, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { DB } from './schema.ts';

/** pg-boss's statements on our connection or transaction, so that a job is queued with its row or not at all. */
export function bossExecutor(db: Kysely<DB>): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: (await db.executeQuery(CompiledQuery.raw(text, values ?? []))).rows }),
  };
}
