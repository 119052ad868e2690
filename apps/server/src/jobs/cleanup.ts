import { workQueue } from './queue-worker.ts';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createIdempotencyRepository } from '../db/idempotency.repository.ts';
import { createRateLimitRepository } from '../db/rate-limit.repository.ts';
import type { DB } from '../db/schema.ts';
import type { FileStorage } from '../lib/file-storage.ts';
import { deleteLiveEventsBefore } from '../lib/live-events.repository.ts';
import { deleteDeliveredMails, redactMailBodies } from '../lib/mail-outbox.repository.ts';
import type { NotificationsService } from '../modules/notifications/index.ts';
import { requeueOrphanedReports, type ReportsService } from '../modules/reports/index.ts';
import {
  deleteEndedSessions,
  deleteExpiredChallenges,
  deleteExpiredRefreshTokens,
  deleteSpentEmailCodes,
  deleteSpentResetCodes,
  deleteStaleSignInCounters,
} from './cleanup.repository.ts';

export const CLEANUP_QUEUE = 'cleanup';
/** Hourly, at minute 7 (pg-boss runs one job per slot, whatever the number of servers). */
export const CLEANUP_CRON = '7 * * * *';
/** Bodies of mail in the outbox stay readable this long (without SMTP, the outbox is how a developer reads mail). */
export const MAIL_BODY_RETENTION_HOURS = 24;
/** Delivered mails stay in the outbox (body redacted) this long, as a record of what was sent to whom. */
export const DELIVERED_MAIL_RETENTION_DAYS = 30;
/** Ended sessions and idle sign-in counters are kept this long (the audit log keeps the history). */
export const ENDED_SESSION_RETENTION_HOURS = 24;
/** The live event log is kept this long: a stream that comes back later refetches everything instead. */
export const LIVE_EVENT_RETENTION_HOURS = 24;
/** Notifications (the bell) are kept this long; the audit log keeps the history of the changes they told. */
export const NOTIFICATION_RETENTION_DAYS = 180;

export type CleanupDeps = {
  db: Kysely<DB>;
  storage: FileStorage;
  now: () => number;
  /** the modules' own old rows, forgotten through their ports */
  notifications: Pick<NotificationsService, 'forgetBefore'>;
  reports: Pick<ReportsService, 'files'>;
};
export type CleanupResult = {
  reportFiles: number;
  refreshTokens: number;
  challenges: number;
  resetCodes: number;
  sessions: number;
  signInCounters: number;
  emailCodes: number;
  rateLimitWindows: number;
  mailBodiesRedacted: number;
  mailsDeleted: number;
  idempotencyKeys: number;
  liveEvents: number;
  notifications: number;
};

/** One cleanup pass; safe to run at any time and on any number of servers. */
export async function runCleanup(deps: CleanupDeps): Promise<CleanupResult> {
  const { db } = deps;
  const now = new Date(deps.now());
  let reportFiles = 0;
  for (;;) {
    const batch = await deps.reports.files.expired(now, 500);
    for (const r of batch) {
      await deps.storage.remove(r.file_key!);
      await deps.reports.files.forget(r.partner_id, r.id, now);
      reportFiles += 1;
    }
    if (batch.length < 500) break;
  }
  return {
    reportFiles,
    refreshTokens: await deleteExpiredRefreshTokens(db, now),
    challenges: await deleteExpiredChallenges(db, now),
    resetCodes: await deleteSpentResetCodes(db, now),
    sessions: await deleteEndedSessions(db, new Date(now.getTime() - ENDED_SESSION_RETENTION_HOURS * 3600_000)),
    signInCounters: await deleteStaleSignInCounters(db, new Date(now.getTime() - ENDED_SESSION_RETENTION_HOURS * 3600_000), now),
    emailCodes: await deleteSpentEmailCodes(db, now),
    rateLimitWindows: Number((await createRateLimitRepository(db).deleteEnded(now))[0]?.numDeletedRows ?? 0),
    mailBodiesRedacted: await redactMailBodies(db, new Date(now.getTime() - MAIL_BODY_RETENTION_HOURS * 3600_000)),
    mailsDeleted: await deleteDeliveredMails(db, new Date(now.getTime() - DELIVERED_MAIL_RETENTION_DAYS * 86400_000)),
    idempotencyKeys: await createIdempotencyRepository(db).deleteExpired(now),
    liveEvents: await deleteLiveEventsBefore(db, new Date(now.getTime() - LIVE_EVENT_RETENTION_HOURS * 3600_000)),
    notifications: await deps.notifications.forgetBefore(new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * 86400_000)),
  };
}

/**
 * Schedules the cleanup hourly on the queue and works it: the pass above, then reports whose queue job ended
 * without finishing them are queued again (so that none holds its partner's limit for ever).
 */
export async function startCleanupJob(deps: CleanupDeps & { boss: PgBoss; log: FastifyBaseLogger }) {
  await deps.boss.createQueue(CLEANUP_QUEUE, { name: CLEANUP_QUEUE, retryLimit: 1, expireInSeconds: 15 * 60 });
  await deps.boss.schedule(CLEANUP_QUEUE, CLEANUP_CRON, {}, { tz: 'UTC' });
  workQueue(deps.boss, CLEANUP_QUEUE, { pollingIntervalSeconds: 30, log: deps.log }, async () => {
    const removed = await runCleanup(deps);
    const requeuedReports = await requeueOrphanedReports(deps.boss, deps.db, deps.now);
    deps.log.info({ ...removed, requeuedReports }, 'cleanup done');
    return { ...removed, requeuedReports };
  });
}
