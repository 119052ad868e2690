import type PgBoss from 'pg-boss';
import type { Kysely, Transaction } from 'kysely';
import { rolesFor } from '@portal/contract/permissions';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { DB } from '../../db/schema.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { Notifier } from '../notifications/index.ts';
import type { PostOutcome } from './webhook-http.ts';
import {
  applyDeliveryOutcomes,
  insertAttempts,
  lockDeliveries,
  markEndpointFailing,
  markEndpointsHealthy,
  type DeliveryOutcome,
} from './webhooks.repository.ts';

/** An attempt made, waiting to be recorded. */
export type Finished = { jobId: string; partnerId: string; deliveryId: string; attemptedAt: Date; outcome: PostOutcome; type: string; messageId: string };

export type RecordDeps = {
  db: Kysely<DB>;
  boss: PgBoss;
  /** the queue whose jobs the recorded attempts complete */
  queue: string;
  /** seconds to wait before each retry (WEBHOOK_RETRY_SCHEDULE) */
  schedule: number[];
  live: LivePublisher;
  notifier: Pick<Notifier, 'notify'>;
};

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
 * Records attempts in batches: whatever finished while the previous batch was being written goes in the next
 * transaction (its attempts, the deliveries' new state, the endpoints' health, the jobs' completion), so that a
 * busy server writes a few statements per batch instead of per attempt, and an idle one writes each at once.
 *
 * The next attempt is scheduled from `schedule` on network errors, timeouts, 408, 429 and 5xx; when the schedule is
 * spent (or the receiver refused for good) the delivery fails, the endpoint is marked failing and the partner's
 * admins are told once, through the notifier in the same transaction (the bell, and an e-mail to whoever did not
 * turn developer notifications off).
 */
export function attemptRecorder(deps: RecordDeps): (finished: Finished) => Promise<void> {
  // pg-boss 10 takes (name, id or ids, data, options) at run time; its types give arrays no data argument
  const completeJobs = (ids: string[], executor: PgBoss.Db) =>
    (deps.boss.complete as unknown as (name: string, ids: string[], data: object, options: PgBoss.ConnectionOptions) => Promise<unknown>).call(
      deps.boss,
      deps.queue,
      ids,
      {},
      { db: executor },
    );

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

  return batched<Finished>(async (batch) => {
    await deps.db.transaction().execute(async (trx) => {
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
}
