import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { WEBHOOK_TIMEOUT_SECONDS } from '@portal/contract/webhooks';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { Database } from '../../db/database.ts';
import { createOutboxRelay } from '../../db/outbox-relay.ts';
import { logFailure } from '../../db/outage.ts';
import { decrypt, type KeyRing } from '../../lib/keys.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { Notifier } from '../notifications/index.ts';
import { onOutboxNudge } from './webhook-events.ts';
import { closeWebhookConnections, postWebhook } from './webhook-http.ts';
import { attemptRecorder } from './webhook-record.ts';
import { signatureHeader, webhookMessageId } from './webhook-signing.ts';
import { startWebhookUpkeep } from './webhook-upkeep.ts';
import { WEBHOOK_OUTBOX_CHANNEL, claimDueDeliveries, failDelivery, loadAttempts, lockDeliveries, type AttemptRow } from './webhooks.repository.ts';

/** One job per attempt of one delivery; the relay queues it, any server's worker makes the attempt. */
export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Deliveries the relay queues per statement. */
const RELAY_BATCH = 500;
/** How long freed worker slots gather before they are refilled together. */
const REFILL_DELAY_MS = 10;
/**
 * A job that dies with its server (no report back) is taken again after 60 s; one that fails on a database error is
 * tried again with backoff. Failed HTTP attempts are not job failures: the delivery's own schedule retries them.
 */
const QUEUE_OPTIONS = { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 };

export type WebhookJob = { partnerId: string; deliveryId: string };

export type WebhookDeliveryDeps = {
  boss: PgBoss;
  database: Database;
  encryptionKey: KeyRing;
  /** tells the partner's admins, in the change's transaction, that an endpoint is failing (the notifications module's port) */
  notifier: Pick<Notifier, 'notify'>;
  log: FastifyBaseLogger;
  /** seconds to wait before each retry (WEBHOOK_RETRY_SCHEDULE) */
  schedule: number[];
  /** attempts in flight at once on this server (WEBHOOK_CONCURRENCY) */
  concurrency: number;
  /** outside production: receivers on private and loopback addresses are allowed */
  allowPrivateTargets: boolean;
  /** announces each delivery's attempt (and its new state) to the partner's open screens, with the attempt's record */
  live: LivePublisher;
  timeoutMs?: number;
  /** how often the relay looks for due deliveries when nothing told it (default 250 ms embedded, 1 s on a server) */
  relayIntervalMs?: number;
};

export type WebhookDelivery = {
  /** queues what is due now (the relay's step); resolves to how many it queued */
  relay(): Promise<number>;
  /** attempts in flight on this server */
  inFlight(): number;
  stop(): Promise<void>;
};

/**
 * Starts this server's share of webhook delivery:
 * - the relay (db/outbox-relay.ts): queues (pg-boss) the deliveries that are due and have no job yet, at once when
 *   an outbox commit is announced (NOTIFY on PostgreSQL, an in-process nudge) and every `relayIntervalMs` otherwise;
 * - the workers: up to `concurrency` attempts at once, each job one signed POST, its outcome and the job's completion
 *   recorded in one transaction with what follows from it (webhook-record.ts);
 * - the hourly upkeep (webhook-upkeep.ts).
 */
export async function startWebhookDelivery(deps: WebhookDeliveryDeps): Promise<WebhookDelivery> {
  const { boss, log } = deps;
  const db = deps.database.db;
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, ...QUEUE_OPTIONS });
  let stopped = false;
  let inFlight = 0;

  // ---- relay: due deliveries become jobs, in batches, each batch in one transaction
  const relay = createOutboxRelay({
    database: deps.database,
    channel: WEBHOOK_OUTBOX_CHANNEL,
    batch: RELAY_BATCH,
    sweepMs: deps.relayIntervalMs ?? (deps.database.kind === 'pglite' ? 250 : 1000),
    name: 'webhook relay',
    log,
    step: async () => {
      const queued = await db.transaction().execute(async (trx) => {
        const due = await claimDueDeliveries(trx, RELAY_BATCH);
        if (due.length > 0) {
          const jobs = due.map((d) => ({ id: d.job_id, name: WEBHOOK_QUEUE, data: { partnerId: d.partner_id, deliveryId: d.id } satisfies WebhookJob }));
          await boss.insert(jobs, { db: bossExecutor(trx) });
        }
        return due.length;
      });
      if (queued > 0) fill();
      return queued;
    },
  });
  // ---- workers: fetch a batch of jobs, load what they need in one query, make the attempts side by side
  let filling = false;
  let fillAgain = false;
  function fill() {
    if (filling) {
      fillAgain = true;
      return;
    }
    filling = true;
    void (async () => {
      try {
        do {
          fillAgain = false;
          while (!stopped && inFlight < deps.concurrency) {
            const jobs = await boss.fetch<WebhookJob>(WEBHOOK_QUEUE, { batchSize: deps.concurrency - inFlight });
            if (jobs.length === 0) break;
            inFlight += jobs.length;
            const rows = new Map(
              (
                await loadAttempts(
                  db,
                  jobs.map((j) => j.data),
                )
              ).map((r) => [r.id, r]),
            );
            for (const job of jobs) {
              void work(job, rows.get(job.data.deliveryId)).finally(() => {
                inFlight -= 1;
                refillSoon();
              });
            }
          }
        } while (fillAgain && !stopped);
      } catch (err) {
        if (!stopped) logFailure(log, err, 'webhook worker could not fetch jobs');
      } finally {
        filling = false;
      }
    })();
  }

  // slots freed within a few milliseconds are refilled with one fetch (one job per fetch costs a fetch per attempt)
  let refill: NodeJS.Timeout | undefined;
  function refillSoon() {
    refill ??= setTimeout(() => {
      refill = undefined;
      fill();
    }, REFILL_DELAY_MS);
  }

  async function work(job: PgBoss.Job<WebhookJob>, row: AttemptRow | undefined) {
    try {
      await attempt(job.id, job.data, row);
    } catch (err) {
      logFailure(log, err, 'webhook attempt could not be recorded; the job is tried again', { delivery: job.data.deliveryId });
      await boss.fail(WEBHOOK_QUEUE, job.id, { message: err instanceof Error ? err.message : String(err) }).catch(() => undefined);
    }
  }

  async function attempt(jobId: string, { partnerId, deliveryId }: WebhookJob, row: AttemptRow | undefined) {
    // gone (its endpoint deleted), finished, or handed to a newer job (a resend, a requeue): nothing to do
    if (!row || row.status !== 'pending' || row.job_id !== jobId) return void (await boss.complete(WEBHOOK_QUEUE, jobId));
    if (!row.active) {
      await db.transaction().execute(async (trx) => {
        const [current] = await lockDeliveries(trx, [{ partnerId, deliveryId }]);
        if (current?.status === 'pending' && current.job_id === jobId) {
          await failDelivery(trx, partnerId, deliveryId, 'Not sent: the webhook is disabled.');
          await deps.live.publish(trx, { partnerId, table: 'webhooks', kind: 'delivery', id: deliveryId, status: 'failed', at: new Date().toISOString() });
        }
        await boss.complete(WEBHOOK_QUEUE, jobId, {}, { db: bossExecutor(trx) });
      });
      return;
    }
    const messageId = webhookMessageId(row.event_id);
    const body = JSON.stringify({ id: messageId, type: row.type, timestamp: row.event_created_at.toISOString(), data: row.data });
    const attemptedAt = new Date();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    // during a roll's overlap the old secret signs too, so that a receiver still holding it accepts the delivery
    const secrets = [decrypt(deps.encryptionKey, row.secret_encrypted)];
    if (row.previous_secret_encrypted && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > attemptedAt) {
      secrets.push(decrypt(deps.encryptionKey, row.previous_secret_encrypted));
    }
    const outcome = await postWebhook({
      url: row.url,
      body,
      timeoutMs,
      allowPrivate: deps.allowPrivateTargets,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'PartnerDashboard-Webhooks/1.0',
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, messageId, timestamp, body),
      },
    });
    await record({ jobId, partnerId, deliveryId, attemptedAt, outcome, type: row.type, messageId });
  }

  const record = attemptRecorder({ db, boss, queue: WEBHOOK_QUEUE, schedule: deps.schedule, live: deps.live, notifier: deps.notifier });
  const upkeep = await startWebhookUpkeep(boss, deps.database, log);

  // ---- what wakes the relay besides its own sweep and the outbox's NOTIFY: a nudge from this process
  relay.start();
  // jobs queued by other servers' relays, and jobs pg-boss hands back after a failure
  const fillTimer = setInterval(fill, 1000);
  const offNudge = onOutboxNudge(() => void relay.run());

  return {
    relay: relay.run,
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      clearInterval(fillTimer);
      clearTimeout(refill);
      offNudge();
      await relay.stop();
      await upkeep.stop();
      // attempts under way finish (10 s at most); one cut short is taken again after its job expires
      const deadline = Date.now() + timeoutMs + 1000;
      while ((inFlight > 0 || filling) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      closeWebhookConnections();
    },
  };
}
