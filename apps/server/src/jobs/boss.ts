import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';

/**
 * pg-boss keeps its queue in the same database (schema pgboss). It talks through our executor, so that on the
 * embedded database its statements take the same session lock as everything else.
 */
export function createBoss(database: Database): PgBoss {
  return new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // keep background chatter low on the embedded database
    maintenanceIntervalSeconds: 300,
  });
}
