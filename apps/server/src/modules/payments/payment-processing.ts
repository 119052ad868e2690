import { workQueue, type QueueWorker } from '../../jobs/queue-worker.ts';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { SANDBOX_PATHS, type SandboxOutcome } from '@portal/contract/payments';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { DB } from '../../db/schema.ts';
import type { LiveBus } from '../../lib/live-bus.ts';
import { recordPaymentChange } from './payment-changes.ts';
import type { Notifier } from '../notifications/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { findOrder, unfinishedOrders } from './payments.repository.ts';
import type { PaymentJob } from './payments.service.ts';

/**
 * The sandbox processor: moves each collection and disbursement along the path of its outcome (SANDBOX_PATHS, chosen
 * by the test amount when it was created), one state per job. A step is one transaction: the state change with its
 * ledger entries, fee row and events (`recordPaymentChange`), and the job of the next step, so that a step is queued
 * if and only if the change before it committed. A step only moves an order out of the status it expects, so a job
 * that runs twice (a server killed before pg-boss heard it finish) changes nothing; a sweep queues again the orders
 * whose job is gone.
 */
export const PAYMENT_QUEUE = 'payment-processing';
export const PAYMENT_SWEEP_QUEUE = 'payment-sweep';
const SWEEP_CRON = '* * * * *';
const QUEUE_OPTIONS = { retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds: 60 };

export type PaymentWorkerDeps = {
  boss: PgBoss;
  db: Kysely<DB>;
  live: LiveBus;
  /** watches the low balance limit when a step moves money */
  notifier: Pick<Notifier, 'checkLowBalance'>;
  /** where each step's money is booked (the ledger module's port) */
  ledger: Pick<Ledger, 'book'>;
  stepSeconds: number;
  log: FastifyBaseLogger;
  now?: () => number;
};

export async function createPaymentQueue(boss: PgBoss) {
  await boss.createQueue(PAYMENT_QUEUE, { name: PAYMENT_QUEUE, ...QUEUE_OPTIONS });
}

/** Queues an order's next step on the given connection or transaction. */
export async function enqueuePaymentStep(boss: PgBoss, db: Kysely<DB> | Transaction<DB>, job: PaymentJob, afterSeconds: number) {
  const id = await boss.send(PAYMENT_QUEUE, job, { startAfter: afterSeconds, db: bossExecutor(db) });
  if (!id) throw new Error(`the queue ${PAYMENT_QUEUE} does not exist: start the payment worker once to create it`);
}

/** The state after `status` on the path of `outcome`; undefined at the end. */
export function nextStatus(outcome: string, status: string) {
  const path = SANDBOX_PATHS[outcome as SandboxOutcome] ?? SANDBOX_PATHS.complete;
  const at = path.indexOf(status as (typeof path)[number]);
  return at < 0 ? undefined : path[at + 1];
}

/** Runs one step of an order; its status afterwards (unchanged when there was nothing to do). */
export async function runPaymentStep(deps: Omit<PaymentWorkerDeps, 'log'>, job: PaymentJob): Promise<string | undefined> {
  const order = await findOrder(deps.db, job.partnerId, job.id);
  if (!order) return undefined;
  const to = nextStatus(order.outcome, order.status);
  if (!to) return order.status;
  const at = new Date((deps.now ?? Date.now)());
  return deps.db.transaction().execute(async (trx) => {
    const row = await recordPaymentChange(trx, deps, { partnerId: job.partnerId, id: job.id, from: order.status, to, at });
    if (!row) return undefined;
    if (nextStatus(row.outcome, row.status)) await enqueuePaymentStep(deps.boss, trx, job, deps.stepSeconds);
    return row.status;
  });
}

/** Queues again the steps of orders that should have moved on long ago. */
export async function sweepPayments(deps: Pick<PaymentWorkerDeps, 'boss' | 'db' | 'stepSeconds'>, now = Date.now()): Promise<number> {
  const rows = await unfinishedOrders(deps.db, new Date(now - (deps.stepSeconds + 120) * 1000));
  for (const r of rows) await enqueuePaymentStep(deps.boss, deps.db, { partnerId: r.partner_id, id: r.id }, 0);
  return rows.length;
}

/** Works the payment queue on this server (pg-boss hands each job to one server), and schedules the sweep. */
export async function startPaymentWorker(deps: PaymentWorkerDeps & { concurrency?: number }) {
  await createPaymentQueue(deps.boss);
  const workers: QueueWorker[] = [];
  for (let i = 0; i < (deps.concurrency ?? 2); i++) {
    workers.push(workQueue<PaymentJob>(deps.boss, PAYMENT_QUEUE, { pollingIntervalSeconds: 0.5, log: deps.log }, (job) => runPaymentStep(deps, job.data)));
  }
  await deps.boss.createQueue(PAYMENT_SWEEP_QUEUE, { name: PAYMENT_SWEEP_QUEUE, retryLimit: 1, expireInSeconds: 5 * 60 });
  await deps.boss.schedule(PAYMENT_SWEEP_QUEUE, SWEEP_CRON, {}, { tz: 'UTC' });
  workers.push(
    workQueue(deps.boss, PAYMENT_SWEEP_QUEUE, { pollingIntervalSeconds: 30, log: deps.log }, async () => {
      const requeued = await sweepPayments(deps);
      if (requeued) deps.log.warn({ requeued }, 'overdue payments queued again');
    }),
  );
  return { stop: async () => Promise.all(workers.map((w) => w.stop())).then(() => undefined) };
}
