import { workQueue } from '../../jobs/queue-worker.ts';
import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from '../../db/outage.ts';
import type PgBoss from 'pg-boss';
import { WEBHOOK_TIMEOUT_SECONDS } from '@portal/contract/webhooks';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { listen, type Listener } from '../../db/notify.ts';
import { decrypt, type KeyRing } from '../../lib/keys.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { rolesFor } from '@portal/contract/permissions';
import type { Notifier } from '../notifications/index.ts';
import { onOutboxNudge } from './webhook-events.ts';
import { signatureHeader, webhookMessageId } from './webhook-signing.ts';
import {
  WEBHOOK_OUTBOX_CHANNEL,
  applyDeliveryOutcomes,
  claimDueDeliveries,
  deleteOldEvents,
  failDelivery,
  insertAttempts,
  loadAttempts,
  lockDeliveries,
  markEndpointFailing,
  markEndpointsHealthy,
  requeueStuckDeliveries,
  type AttemptRow,
  type DeliveryOutcome,
} from './webhooks.repository.ts';
import { closeWebhookConnections, postWebhook, type PostOutcome } from './webhook-http.ts';

/** One job per attempt of one delivery; the relay queues it, any server's worker makes the attempt. */
export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Hourly upkeep: old history goes, deliveries whose job vanished are queued again. */
export const WEBHOOK_UPKEEP_QUEUE = 'webhook-upkeep';
const UPKEEP_CRON = '23 * * * *';
/** Events (with their deliveries and attempts) are kept this long once no delivery of theirs is pending. */
export const WEBHOOK_RETENTION_DAYS = 30;
/** A queued attempt that has not reported back after this long is queued again (at-least-once). */
const STUCK_AFTER_MINUTES = 30;
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

/** An attempt made, waiting to be recorded. */
type Finished = { jobId: string; partnerId: string; deliveryId: string; attemptedAt: Date; outcome: PostOutcome; type: string; messageId: string };

/**
 * Calls `write` with everything queued while the previous call ran (at most `max` at a time); each caller's promise
 * settles with its batch.
 */
function batched<T>(write: (items: T[]) => Promise<void>, max = 200): (item: T) => Promise<void> {
  const queue: { item: T; resolve(): void; reject(err: unknown): void }[] = [];
  let running = false;
  const drain = async () => {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, max);
        try {
          await write(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      running = false;
    }
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      void drain();
    });
}

/** Whether an attempt's outcome ends the delivery well. */
const succeeded = (o: PostOutcome) => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

/**
 * Starts this server's share of webhook delivery:
 * - the relay: queues (pg-boss) the deliveries that are due and have no job yet, at once when an outbox commit is
 *   announced (NOTIFY on PostgreSQL, an in-process nudge) and every `relayIntervalMs` otherwise;
 * - the workers: up to `concurrency` attempts at once, each job one signed POST, its outcome and the job's completion
 *   recorded in one transaction, the next attempt scheduled from `schedule` on network errors, timeouts, 408, 429
 *   and 5xx; when the schedule is spent (or the receiver refused for good) the delivery fails, the endpoint is marked
 *   failing and the partner's admins are told once, through the notifier in the same transaction (the bell, and an
 *   e-mail to whoever did not turn developer notifications off);
 * - the hourly upkeep.
 */
export async function startWebhookDelivery(deps: WebhookDeliveryDeps): Promise<WebhookDelivery> {
  const { boss, log } = deps;
  const db = deps.database.db;
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, ...QUEUE_OPTIONS });
  let stopped = false;
  let inFlight = 0;

  // ---- relay
  let relaying: Promise<number> | undefined;
  let relayAgain = false;
  async function relayOnce(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const due = await claimDueDeliveries(trx, RELAY_BATCH);
      if (due.length > 0) {
        const jobs = due.map((d) => ({ id: d.job_id, name: WEBHOOK_QUEUE, data: { partnerId: d.partner_id, deliveryId: d.id } satisfies WebhookJob }));
        await boss.insert(jobs, { db: bossExecutor(trx) });
      }
      return due.length;
    });
  }
  function relay(): Promise<number> {
    if (relaying) {
      relayAgain = true;
      return relaying;
    }
    relaying = (async () => {
      let total = 0;
      try {
        do {
          relayAgain = false;
          let queued: number;
          do {
            queued = await relayOnce();
            total += queued;
            if (queued > 0) fill();
          } while (queued === RELAY_BATCH && !stopped);
        } while (relayAgain && !stopped);
      } catch (err) {
        if (!stopped) logFailure(log, err, 'webhook relay failed; it tries again shortly');
      } finally {
        relaying = undefined;
      }
      return total;
    })();
    return relaying;
  }

  // pg-boss 10 takes (name, id or ids, data, options) at run time; its types give arrays no data argument
  const completeJobs = (ids: string[], executor: PgBoss.Db) =>
    (boss.complete as unknown as (name: string, ids: string[], data: object, options: PgBoss.ConnectionOptions) => Promise<unknown>).call(
      boss,
      WEBHOOK_QUEUE,
      ids,
      {},
      { db: executor },
    );

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

  /**
   * Attempts are recorded in batches: whatever finished while the previous batch was being written goes in the next
   * transaction (its attempts, the deliveries' new state, the endpoints' health, the jobs' completion), so that a
   * busy server writes a few statements per batch instead of per attempt, and an idle one writes each at once.
   */
  const record = batched<Finished>(async (batch) => {
    await db.transaction().execute(async (trx) => {
      const locked = new Map((await lockDeliveries(trx, batch)).map((d) => [d.id, { ...d }]));
      const attempts: Parameters<typeof insertAttempts>[1] = [];
      const outcomes = new Map<string, DeliveryOutcome>();
      const healthy: { partnerId: string; endpointId: string }[] = [];
      const failing: { partnerId: string; endpointId: string; f: Finished }[] = [];
      for (const f of batch) {
        const current = locked.get(f.deliveryId);
        if (!current) continue; // deleted with its endpoint meanwhile
        current.attempt_count += 1;
        attempts.push({
          partner_id: f.partnerId,
          delivery_id: f.deliveryId,
          n: current.attempt_count,
          attempted_at: f.attemptedAt,
          status_code: f.outcome.statusCode,
          duration_ms: f.outcome.durationMs,
          response_snippet: f.outcome.responseSnippet,
          error: f.outcome.error,
          trigger: current.manual ? 'manual' : 'automatic',
        });
        const next: DeliveryOutcome = {
          partnerId: f.partnerId,
          deliveryId: f.deliveryId,
          status: current.status,
          attemptCount: current.attempt_count,
          retryStep: current.retry_step,
          retryInSeconds: null,
          note: null,
        };
        if (current.status !== 'pending' || current.job_id !== f.jobId) {
          // a resend took the delivery over meanwhile: keep this attempt in its history, change nothing else
        } else if (succeeded(f.outcome)) {
          next.status = 'succeeded';
          healthy.push({ partnerId: f.partnerId, endpointId: current.endpoint_id });
        } else if (f.outcome.retryable && !current.manual && current.retry_step < deps.schedule.length) {
          next.retryInSeconds = deps.schedule[current.retry_step]!;
          next.retryStep = current.retry_step + 1;
        } else {
          next.status = 'failed';
          // a manual attempt (a resend, a test event) that fails does not mark the endpoint: the person sees it fail
          if (!current.manual) failing.push({ partnerId: f.partnerId, endpointId: current.endpoint_id, f });
        }
        current.status = next.status;
        current.retry_step = next.retryStep;
        outcomes.set(f.deliveryId, next);
      }
      await insertAttempts(trx, attempts);
      await applyDeliveryOutcomes(trx, [...outcomes.values()]);
      // one event per delivery of the batch: its attempt is in the history, its state may have moved
      const at = new Date().toISOString();
      await deps.live.publishMany(
        trx,
        [...outcomes.values()].map((o) => ({ partnerId: o.partnerId, table: 'webhooks' as const, kind: 'delivery', id: o.deliveryId, status: o.status, at })),
      );
      await markEndpointsHealthy(trx, healthy);
      for (const x of failing) {
        const marked = await markEndpointFailing(trx, x.partnerId, x.endpointId);
        // told once, when the endpoint turns failing: the bell, and an e-mail to whoever did not turn them off
        if (marked) await tellFailing(trx, x.partnerId, marked.url, x.f, outcomes.get(x.f.deliveryId)!.attemptCount);
      }
      await completeJobs(
        batch.map((f) => f.jobId),
        bossExecutor(trx),
      );
    });
  });

  const tellFailing = (trx: Transaction<DB>, partnerId: string, url: string, f: Finished, attempts: number) =>
    deps.notifier.notify(trx, {
      partnerId,
      topic: 'developers',
      to: { roles: rolesFor('manageWebhooks') },
      notice: (t) =>
        t.notices.webhookFailing({
          type: f.type,
          messageId: f.messageId,
          url,
          retryable: f.outcome.retryable,
          attempts,
          last: f.outcome.error ?? `HTTP ${f.outcome.statusCode}`,
        }),
      link: '/webhooks',
      at: new Date(),
    });

  // ---- upkeep
  await boss.createQueue(WEBHOOK_UPKEEP_QUEUE, { name: WEBHOOK_UPKEEP_QUEUE, retryLimit: 1, expireInSeconds: 15 * 60 });
  await boss.schedule(WEBHOOK_UPKEEP_QUEUE, UPKEEP_CRON, {}, { tz: 'UTC' });
  const upkeep = workQueue(boss, WEBHOOK_UPKEEP_QUEUE, { pollingIntervalSeconds: 30, log }, async () => {
    const result = await webhookUpkeep(deps.database, Date.now());
    log.info(result, 'webhook upkeep done');
  });

  // ---- what wakes the relay: the timer, the outbox's NOTIFY (PostgreSQL), a nudge from this process
  const interval = deps.relayIntervalMs ?? (deps.database.kind === 'pglite' ? 250 : 1000);
  const relayTimer = setInterval(() => void relay(), interval);
  // jobs queued by other servers' relays, and jobs pg-boss hands back after a failure
  const fillTimer = setInterval(fill, 1000);
  const offNudge = onOutboxNudge(() => void relay());
  const listener: Listener | undefined = deps.database.url
    ? listen({
        url: deps.database.url,
        registry: deps.database.listeners,
        channel: WEBHOOK_OUTBOX_CHANNEL,
        onMessage: () => void relay(),
        onListening: () => void relay(),
        onReconnect: () => void relay(),
        onError: (err) => log.warn({ err }, 'webhook outbox notifications interrupted'),
      })
    : undefined;
  void relay();

  return {
    relay,
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      clearInterval(relayTimer);
      clearInterval(fillTimer);
      clearTimeout(refill);
      offNudge();
      await listener?.close();
      await upkeep.stop();
      // attempts under way finish (10 s at most); one cut short is taken again after its job expires
      const deadline = Date.now() + timeoutMs + 1000;
      while ((inFlight > 0 || relaying || filling) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      closeWebhookConnections();
    },
  };
}

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
