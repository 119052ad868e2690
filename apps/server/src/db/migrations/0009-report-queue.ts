import { sql, type Kysely } from 'kysely';

/**
 * The fair report queue. `queue_rank` is a job's place in its partner's line (0 for a partner with nothing else
 * being prepared); the queue serves rank 0 of every partner before anyone's rank 1. `queue_job_id` is the job of
 * the queue that builds it, so that a report whose queue job has ended without finishing it can be found and
 * queued again. The partial index answers "how many reports is this partner waiting for" at every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table report_jobs add column queue_rank integer not null default 0;
    alter table report_jobs add column queue_job_id uuid;
    create index report_jobs_active_idx on report_jobs (partner_id, queue_rank)
      where status in ('requested', 'in_progress', 'data_downloaded');
    create index report_jobs_file_expiry_idx on report_jobs (expires_at) where file_key is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index report_jobs_file_expiry_idx;
    drop index report_jobs_active_idx;
    alter table report_jobs drop column queue_job_id;
    alter table report_jobs drop column queue_rank;
  `.execute(db);
}
