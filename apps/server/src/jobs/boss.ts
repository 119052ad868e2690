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
    // maintenance hands back the jobs of a server that died under them once they expire: every 30 s on PostgreSQL
    // (several servers); every 5 minutes on the embedded database, one process, to keep its background chatter low
    maintenanceIntervalSeconds: database.kind === 'pglite' ? 300 : 30,
  });
}
