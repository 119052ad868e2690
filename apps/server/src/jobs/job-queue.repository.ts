import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Reads of pg-boss's own tables (schema `pgboss`, jobs/boss.ts) that pg-boss offers no call for. pg-boss 10 keeps its
 * queues in `pgboss.queue` and their jobs in `pgboss.job` (one partition a queue), with an index on (name,
 * start_after) of the jobs not yet picked up (state created or retry: `state < 'active'`).
 */

/**
 * Per queue, how long its oldest due job has waited for a worker, in seconds: jobs created or due for a retry (state
 * `created` or `retry`), whose start_after has come, measured from start_after (a retry or a step scheduled for later
 * is not waiting yet). 0 for a queue with none. One statement for every queue.
 */
export async function oldestDueJobs(db: Kysely<DB>): Promise<{ queue: string; seconds: number }[]> {
  const rows = await sql<{ queue: string; seconds: number | string }>`
    select q.name as queue, coalesce(extract(epoch from now() - min(j.start_after)), 0)::float8 as seconds
      from pgboss.queue q
      left join pgboss.job j on j.name = q.name and j.state < 'active' and j.start_after <= now()
     group by q.name`.execute(db);
  return rows.rows.map((r) => ({ queue: r.queue, seconds: Math.max(0, Number(r.seconds)) }));
}
