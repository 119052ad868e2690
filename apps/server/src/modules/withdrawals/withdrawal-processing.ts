import { workQueue } from '../../jobs/queue-worker.ts';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { DB } from '../../db/schema.ts';
import type { Network } from '@portal/contract/domain';
import type { SettlementStatus } from '@portal/contract/settlements';
import type { SettlementPayer } from './payer.ts';
import { recordWithdrawalChange } from './withdrawal-changes.ts';
import { findRequestBySettlement, setFailureReason, unfinishedWithdrawals } from './withdrawals.repository.ts';
import type { WalletDirectory } from '../wallets/index.ts';
import type { Notifier } from '../notifications/index.ts';
import type { Ledger } from '../ledger/index.ts';

/**
 * Withdrawals after they are booked: pending → processing (sent on chain) → complete, or failed with a reversing
 * ledger entry that gives the amount back. Two steps on one pg-boss queue, each queued in the transaction of the
 * step before, and each safe to run twice (a step only moves a settlement out of the status it expects).
 */
export const SETTLEMENT_QUEUE = 'settlement-processing';
/** A sweep that queues again withdrawals whose job is gone (retries spent, a server lost for good). */
export const SETTLEMENT_SWEEP_QUEUE = 'settlement-sweep';
const SWEEP_CRON = '*/5 * * * *';

export type WithdrawalJob = { partnerId: string; settlementId: string; step: 'send' | 'settle' };

export type WithdrawalTimings = {
  /** seconds from the request to the send (pending → processing) */
  processingSeconds: number;
  /** seconds from the send to the settling (processing → complete or failed) */
  completionSeconds: number;
};

export type WithdrawalWorkerDeps = {
  boss: PgBoss;
  db: Kysely<DB>;
  payer: SettlementPayer;
  timings: WithdrawalTimings;
  log: FastifyBaseLogger;
  /** tells how a withdrawal ended, and watches the low balance limit when a failed one gives its amount back */
  notifier: Pick<Notifier, 'notify' | 'who' | 'checkLowBalance'>;
  /** where a failed withdrawal's amount is given back (the ledger module's port) */
  ledger: Pick<Ledger, 'book'>;
  /** the wallet a withdrawal goes to, read again before it is sent (the wallets module's port) */
  wallets: Pick<WalletDirectory, 'find'>;
};

const SYSTEM = { userId: null, name: 'system' };
const QUEUE_OPTIONS = { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 5 * 60 };

export async function createWithdrawalQueue(boss: PgBoss) {
  await boss.createQueue(SETTLEMENT_QUEUE, { name: SETTLEMENT_QUEUE, ...QUEUE_OPTIONS });
}

/** Queues a step on the given connection or transaction (so it is queued with the change, or not at all). */
export async function enqueueWithdrawalStep(boss: PgBoss, db: Kysely<DB>, job: WithdrawalJob, afterSeconds: number) {
  const id = await boss.send(SETTLEMENT_QUEUE, job, { startAfter: afterSeconds, db: bossExecutor(db) });
  if (!id) throw new Error(`the queue ${SETTLEMENT_QUEUE} does not exist: start the settlement worker once to create it`);
}

/** Fails a settlement and gives its amount back, in one transaction. */
async function fail(
  trx: Transaction<DB>,
  ports: Pick<WithdrawalWorkerDeps, 'notifier' | 'ledger'>,
  job: WithdrawalJob,
  from: SettlementStatus,
  amount: string,
  currency: string,
  reason: string,
  at: Date,
) {
  const row = await recordWithdrawalChange(
    trx,
    { partnerId: job.partnerId, settlementId: job.settlementId, from, to: 'failed', actor: SYSTEM, reason, at },
    ports.notifier,
  );
  if (!row) return false;
  // the reversal's (partner, kind, reference) is unique: a settlement is given back once
  await ports.ledger.book(trx, { partnerId: job.partnerId, currency, amount, kind: 'settlement_reversal', reference: job.settlementId, at });
  await setFailureReason(trx, job.partnerId, job.settlementId, reason);
  await ports.notifier.checkLowBalance(trx, job.partnerId, at, currency);
  return true;
}

/** Runs one step; the settlement's status afterwards (unchanged when the step had nothing to do). */
export async function runWithdrawalStep(deps: Omit<WithdrawalWorkerDeps, 'log'> & { now?: () => number }, job: WithdrawalJob): Promise<string | undefined> {
  const { db } = deps;
  const at = () => new Date((deps.now ?? Date.now)());
  const w = await findRequestBySettlement(db, job.partnerId, job.settlementId);
  if (!w) return undefined;
  const s = w.settlement;
  const network = s.network as Network;

  if (job.step === 'send') {
    if (s.status !== 'pending') return s.status;
    const wallet = await deps.wallets.find(job.partnerId, w.wallet_id);
    if (!wallet || wallet.status !== 'enabled') {
      await db
        .transaction()
        .execute((trx) =>
          fail(trx, deps, job, 'pending', w.amount, w.currency, 'The wallet address was disabled or deleted before the withdrawal was sent', at()),
        );
      return 'failed';
    }
    // the payer takes the settlement id as its idempotency key: a step that runs again does not pay twice
    const sent = await deps.payer.send({
      settlementId: s.id,
      network,
      coin: s.crypto_currency,
      amount: s.crypto_amount,
      address: s.external_wallet_address,
      tag: w.wallet_tag,
    });
    return db.transaction().execute(async (trx) => {
      if (!sent.ok) return (await fail(trx, deps, job, 'pending', w.amount, w.currency, sent.reason, at())) ? 'failed' : undefined;
      const row = await recordWithdrawalChange(
        trx,
        {
          partnerId: job.partnerId,
          settlementId: job.settlementId,
          from: 'pending',
          to: 'processing',
          actor: SYSTEM,
          transactionHash: sent.transactionHash,
          internalWalletAddress: sent.fromAddress,
          at: at(),
        },
        deps.notifier,
      );
      if (!row) return undefined;
      await enqueueWithdrawalStep(deps.boss, trx, { ...job, step: 'settle' }, deps.timings.completionSeconds);
      return 'processing';
    });
  }

  if (s.status !== 'processing') return s.status;
  const confirmed = await deps.payer.confirm({ settlementId: s.id, network, transactionHash: s.transaction_hash ?? '' });
  return db.transaction().execute(async (trx) => {
    if (!confirmed.ok) return (await fail(trx, deps, job, 'processing', w.amount, w.currency, confirmed.reason, at())) ? 'failed' : undefined;
    const row = await recordWithdrawalChange(
      trx,
      {
        partnerId: job.partnerId,
        settlementId: job.settlementId,
        from: 'processing',
        to: 'complete',
        actor: SYSTEM,
        at: at(),
      },
      deps.notifier,
    );
    return row ? 'complete' : undefined;
  });
}

/** Queues again the steps of withdrawals that should have moved on long ago. */
export async function sweepWithdrawals(deps: Pick<WithdrawalWorkerDeps, 'boss' | 'db' | 'timings'>, now = Date.now()): Promise<number> {
  const overdue = new Date(now - (deps.timings.processingSeconds + deps.timings.completionSeconds + 600) * 1000);
  const rows = await unfinishedWithdrawals(deps.db, overdue);
  for (const r of rows) {
    await enqueueWithdrawalStep(
      deps.boss,
      deps.db,
      { partnerId: r.partner_id, settlementId: r.settlement_id, step: r.status === 'pending' ? 'send' : 'settle' },
      0,
    );
  }
  return rows.length;
}

/** Works the settlement queue on this server (pg-boss hands each job to one server), and schedules the sweep. */
export async function startWithdrawalWorker(deps: WithdrawalWorkerDeps) {
  await createWithdrawalQueue(deps.boss);
  workQueue<WithdrawalJob>(deps.boss, SETTLEMENT_QUEUE, { pollingIntervalSeconds: 1, log: deps.log }, async (job) => {
    const status = await runWithdrawalStep(deps, job.data);
    deps.log.info({ settlement: job.data.settlementId, partner: job.data.partnerId, step: job.data.step, status }, 'settlement step done');
  });
  await deps.boss.createQueue(SETTLEMENT_SWEEP_QUEUE, { name: SETTLEMENT_SWEEP_QUEUE, retryLimit: 1, expireInSeconds: 5 * 60 });
  await deps.boss.schedule(SETTLEMENT_SWEEP_QUEUE, SWEEP_CRON, {}, { tz: 'UTC' });
  workQueue(deps.boss, SETTLEMENT_SWEEP_QUEUE, { pollingIntervalSeconds: 30, log: deps.log }, async () => {
    const requeued = await sweepWithdrawals(deps);
    if (requeued) deps.log.warn({ requeued }, 'overdue withdrawals queued again');
  });
}
