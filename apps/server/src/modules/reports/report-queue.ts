import type PgBoss from 'pg-boss';
import type { DB } from '../../db/schema.ts';
import type { Kysely } from 'kysely';
import { bossExecutor } from '../../db/boss-executor.ts';

/** The queue of report builds, shared by every server on the database (pg-boss, schema pgboss). */
export const REPORT_QUEUE = 'report-build';

export type ReportBuildJob = { partnerId: string; id: string };

/**
 * A build that fails is tried twice more, 5 s apart; one that runs past 15 minutes (a server died under it) is
 * taken back and tried again by any server.
 */
const QUEUE_OPTIONS = { retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 };

export async function createReportQueue(boss: PgBoss): Promise<void> {
  await boss.createQueue(REPORT_QUEUE, { name: REPORT_QUEUE, ...QUEUE_OPTIONS });
}

/**
 * Queues the build of a report. The queue serves higher priorities first and, within one, the oldest job: the
 * priority is minus the report's rank in its partner's line, so every partner's first waiting report comes before
 * anyone's second (round-robin between partners), and a partner's own reports keep their order.
 */
export async function enqueueReportBuild(boss: PgBoss, db: Kysely<DB>, job: ReportBuildJob, rank: number): Promise<string> {
  const id = await boss.send(REPORT_QUEUE, job, { priority: -rank, db: bossExecutor(db) });
  if (!id) throw new Error(`the queue ${REPORT_QUEUE} does not exist: start the report worker once to create it`);
  return id;
}

/** Whether a queue job is still to run or running (queued, waiting for a retry, or active). */
export async function isQueueJobLive(boss: PgBoss, queueJobId: string | null): Promise<boolean> {
  if (!queueJobId) return false;
  const job = await boss.getJobById(REPORT_QUEUE, queueJobId);
  return job !== null && (job.state === 'created' || job.state === 'retry' || job.state === 'active');
}
