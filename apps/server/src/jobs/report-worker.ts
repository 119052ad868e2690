import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { FileStorage } from '../lib/file-storage.ts';
import { REPORT_QUEUE, createReportsService } from '../modules/reports/reports.service.ts';

/** Starts the report builder on the queue, and queues again the jobs a previous run left unfinished. */
export async function startReportWorker(deps: { boss: PgBoss; db: Kysely<DB>; storage: FileStorage; log: FastifyBaseLogger; now?: () => number }) {
  const service = createReportsService({ db: deps.db, boss: deps.boss, storage: deps.storage, now: deps.now ?? Date.now });
  await deps.boss.createQueue(REPORT_QUEUE);
  await deps.boss.work<{ partnerId: string; id: string }>(REPORT_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    deps.log.info({ report: job.data.id }, 'building report');
    await service.build(job.data.partnerId, job.data.id);
  });
  const requeued = await service.requeueUnfinished();
  if (requeued) deps.log.info({ requeued }, 'report jobs queued again after a restart');
  return service;
}
