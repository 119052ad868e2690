import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';

/** Where pg-boss keeps its queue, and how it talks to it: through our executor (see createBoss). */
const queueDatabase = (database: Database) => ({
  db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
  schema: 'pgboss',
});

/**
 * pg-boss keeps its queue in the same database (schema pgboss). It talks through our executor, so that on the
 * embedded database its statements take the same session lock as everything else.
 */
export function createBoss(database: Database): PgBoss {
  return new PgBoss({
    ...queueDatabase(database),
    // maintenance hands back the jobs of a server that died under them once they expire: every 30 s on PostgreSQL
    // (several servers); every 5 minutes on the embedded database, one process, to keep its background chatter low
    maintenanceIntervalSeconds: database.kind === 'pglite' ? 300 : 30,
  });
}

/**
 * The job queue's schema, made or brought up to this pg-boss's version, as the role that owns the database (the
 * `migrate` command: a deployment runs it as its migrator before the instances start; an instance that finds the
 * schema current makes nothing). A queue's own table is made the first time a server names the queue, as the app's
 * role, which makes no table: pg-boss's create_queue runs as its owner (SECURITY DEFINER, a fixed search_path), and
 * does nothing else than create that queue's partition.
 */
export async function prepareQueueSchema(database: Database) {
  const boss = new PgBoss({
    ...queueDatabase(database),
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
  await database.executeSql(`
    do $$ begin
      if exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                  where n.nspname = 'pgboss' and p.proname = 'create_queue' and not p.prosecdef and pg_get_userbyid(p.proowner) = current_user) then
        alter function pgboss.create_queue(text, json) security definer set search_path = pg_catalog, pgboss, pg_temp;
      end if;
    end $$`);
}
