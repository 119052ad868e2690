import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { countPartnerRows } from '../../db/partner-rows.repository.ts';
import type { DB, ReportJobsTable } from '../../db/schema.ts';

/** Every statement on report jobs. */

type Executor = Kysely<DB> | Transaction<DB>;
export type ReportJobRow = Selectable<ReportJobsTable>;
export type ReportJobUpdate = Partial<{
  status: string;
  total_pages: number;
  processed_pages: number;
  row_count: number;
  file_key: string | null;
  error: string | null;
  expires_at: Date | null;
  queue_job_id: string;
}>;
export type NewReportJob = {
  partner_id: string;
  id: string;
  requested_by_id: string;
  requested_by_email: string;
  data_source: string;
  start_date: string;
  end_date: string;
  filters: Record<string, string>;
  fiat_wallet: string;
  time_zone: string;
};

/** Queued or being built: what counts against a partner's limit. */
export const ACTIVE_REPORT_STATUSES = ['requested', 'in_progress', 'data_downloaded'] as const;

/** The advisory-lock space of "a partner's report line" (any constant that no other lock of the app uses). */
const REPORT_LINE_LOCK = 5_000_001;

export function findReportJob(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('report_jobs').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

export function listReportJobs(db: Executor, partnerId: string, startIndex: number, size: number) {
  return db
    .selectFrom('report_jobs')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(size)
    .offset(startIndex)
    .execute();
}

export const countReportJobs = (db: Executor, partnerId: string) => countPartnerRows(db, 'report_jobs', partnerId);

/** How many reports the partner has queued or being built. */
export async function countActiveReportJobs(db: Executor, partnerId: string): Promise<number> {
  const row = await db
    .selectFrom('report_jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('partner_id', '=', partnerId)
    .where('status', 'in', ACTIVE_REPORT_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Holds the partner's report line until the transaction ends: changes to the line take turns, per partner. */
export async function lockReportLine(trx: Transaction<DB>, partnerId: string) {
  await sql`select pg_advisory_xact_lock(${REPORT_LINE_LOCK}, hashtext(${partnerId}))`.execute(trx);
}

/**
 * Inserts a report job unless the partner already has `limit` queued or being built. Inside the caller's
 * transaction, a lock on the partner's report line (released at commit) makes the count and the insert one step:
 * parallel requests of one partner take turns here, other partners are not held up.
 */
export async function insertReportJobWithinLimit(
  trx: Transaction<DB>,
  job: NewReportJob,
  limit: number,
): Promise<{ inserted: true; rank: number } | { inserted: false; active: number }> {
  await lockReportLine(trx, job.partner_id);
  const line = await trx
    .selectFrom('report_jobs')
    .select((eb) => [eb.fn.countAll<number>().as('active'), eb.fn.max('queue_rank').as('last_rank')])
    .where('partner_id', '=', job.partner_id)
    .where('status', 'in', ACTIVE_REPORT_STATUSES)
    .executeTakeFirstOrThrow();
  const active = Number(line.active);
  if (active >= limit) return { inserted: false, active };
  // behind the partner's last waiting report; first in the line again once nothing is waiting
  const rank = line.last_rank === null ? 0 : Number(line.last_rank) + 1;
  await trx
    .insertInto('report_jobs')
    .values({
      ...job,
      filters: JSON.stringify(job.filters),
      status: 'requested',
      queue_rank: rank,
      row_count: null,
      file_key: null,
      error: null,
      expires_at: null,
      queue_job_id: null,
    })
    .execute();
  return { inserted: true, rank };
}

export async function updateReportJob(db: Executor, partnerId: string, id: string, values: ReportJobUpdate, now: Date) {
  await db
    .updateTable('report_jobs')
    .set({ ...values, updated_at: now })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .execute();
}

/** Every partner's jobs that are queued or being built (a few per partner at most: the limit sees to it). */
export function unfinishedReportJobs(db: Executor) {
  return db
    .selectFrom('report_jobs')
    .select(['partner_id', 'id', 'queue_rank', 'queue_job_id', 'updated_at'])
    .where('status', 'in', ACTIVE_REPORT_STATUSES)
    .orderBy('created_at')
    .execute();
}

/** Complete reports whose file is past its expiry and still stored. */
export function expiredReportFiles(db: Executor, now: Date, limit = 1000) {
  return db
    .selectFrom('report_jobs')
    .select(['partner_id', 'id', 'file_key'])
    .where('file_key', 'is not', null)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** The job keeps its row (it lists as expired); only the file is gone. */
export async function forgetReportFile(db: Executor, partnerId: string, id: string, now: Date) {
  await db.updateTable('report_jobs').set({ file_key: null, updated_at: now }).where('partner_id', '=', partnerId).where('id', '=', id).execute();
}
