import { workQueue } from '../../jobs/queue-worker.ts';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { ACTIVE_REPORT_STATUSES, findReportJob, lockReportLine, unfinishedReportJobs, updateReportJob } from './reports.repository.ts';
import { buildReport, type ReportBuildDeps } from './report-build.ts';
import { REPORT_QUEUE, createReportQueue, enqueueReportBuild, isQueueJobLive, type ReportBuildJob } from './report-queue.ts';

export type ReportWorkerDeps = {
  boss: PgBoss;
  db: Kysely<DB>;
  /** where report rows are read (a caught-up replica, else the primary); default `db` */
  read?: () => Promise<Kysely<DB>>;
  storage: FileStorage;
  partners: ReportBuildDeps['partners'];
  log: FastifyBaseLogger;
  now?: () => number;
  /** reports this server builds at the same time (REPORT_CONCURRENCY) */
  concurrency?: number;
};

/** How often an idle builder looks for work (a busy one takes its next job at once). */
const IDLE_POLL_SECONDS = 1;

/**
 * Starts `concurrency` builders on the report queue, and queues again the reports whose queue job ended without
 * finishing them. Every server on the database may run builders: pg-boss hands each queued job to exactly one.
 */
export async function startReportWorker(deps: ReportWorkerDeps) {
  const now = deps.now ?? Date.now;
  const concurrency = deps.concurrency ?? 1;
  await createReportQueue(deps.boss);
  for (let i = 0; i < concurrency; i++) {
    // one job at a time per builder, so a long report holds one slot and the others keep going
    workQueue<ReportBuildJob>(deps.boss, REPORT_QUEUE, { pollingIntervalSeconds: IDLE_POLL_SECONDS, log: deps.log }, async (job) => {
      deps.log.info({ report: job.data.id, partner: job.data.partnerId }, 'building report');
      await buildReport(
        { db: deps.db, ...(deps.read ? { read: deps.read } : {}), storage: deps.storage, partners: deps.partners, now },
        job.data.partnerId,
        job.data.id,
      );
    });
  }
  const requeued = await requeueOrphanedReports(deps.boss, deps.db, now);
  if (requeued) deps.log.info({ requeued }, 'report jobs queued again');
  return { requeued };
}

/**
 * Reports left queued or half-built whose queue job is gone or ended (a server stopped for good mid-build, or its
 * retries ran out) are queued again at their place in line; their build starts over. Reports whose queue job is
 * still waiting or running are left to it, so that two servers never build one report at once.
 */
export async function requeueOrphanedReports(boss: PgBoss, db: Kysely<DB>, now: () => number = Date.now): Promise<number> {
  let requeued = 0;
  for (const r of await unfinishedReportJobs(db)) {
    if (await isQueueJobLive(boss, r.queue_job_id)) continue;
    const done = await db.transaction().execute(async (trx) => {
      // another server starting at the same time may have queued it again already: then its queue job id changed
      await lockReportLine(trx, r.partner_id);
      const current = await findReportJob(trx, r.partner_id, r.id);
      if (!current || current.queue_job_id !== r.queue_job_id || !(ACTIVE_REPORT_STATUSES as readonly string[]).includes(current.status)) return false;
      const queueJobId = await enqueueReportBuild(boss, trx, { partnerId: r.partner_id, id: r.id }, r.queue_rank);
      await updateReportJob(trx, r.partner_id, r.id, { queue_job_id: queueJobId }, new Date(now()));
      return true;
    });
    if (done) requeued += 1;
  }
  return requeued;
}
