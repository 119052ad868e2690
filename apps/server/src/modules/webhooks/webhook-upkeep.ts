import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { workQueue, type QueueWorker } from '../../jobs/queue-worker.ts';
import { deleteOldEvents, requeueStuckDeliveries } from './webhooks.repository.ts';

/** Hourly upkeep: old history goes, deliveries whose job vanished are queued again. */
const WEBHOOK_UPKEEP_QUEUE = 'webhook-upkeep';
const UPKEEP_CRON = '23 * * * *';
/** Events (with their deliveries and attempts) are kept this long once no delivery of theirs is pending. */
export const WEBHOOK_RETENTION_DAYS = 30;
/** A queued attempt that has not reported back after this long is queued again (at-least-once). */
const STUCK_AFTER_MINUTES = 30;

/** Deletes history past its retention and queues again the deliveries whose job never reported back. */
export async function webhookUpkeep(database: Database, now: number) {
  let deletedEvents = 0;
  for (;;) {
    const n = await deleteOldEvents(database.db, new Date(now - WEBHOOK_RETENTION_DAYS * 86400_000));
    deletedEvents += n;
    if (n === 0) break;
  }
  const requeued = await requeueStuckDeliveries(database.db, new Date(now - STUCK_AFTER_MINUTES * 60_000));
  return { deletedEvents, requeued };
}

/** Schedules the upkeep every hour (any one server runs it) and works it on this server. */
export async function startWebhookUpkeep(boss: PgBoss, database: Database, log: FastifyBaseLogger): Promise<QueueWorker> {
  await boss.createQueue(WEBHOOK_UPKEEP_QUEUE, { name: WEBHOOK_UPKEEP_QUEUE, retryLimit: 1, expireInSeconds: 15 * 60 });
  await boss.schedule(WEBHOOK_UPKEEP_QUEUE, UPKEEP_CRON, {}, { tz: 'UTC' });
  return workQueue(boss, WEBHOOK_UPKEEP_QUEUE, { pollingIntervalSeconds: 30, log }, async () => {
    const result = await webhookUpkeep(database, Date.now());
    log.info(result, 'webhook upkeep done');
  });
}
