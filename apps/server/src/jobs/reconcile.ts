import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Ledger } from '../modules/ledger/index.ts';
import { workQueue } from './queue-worker.ts';

export const RECONCILE_QUEUE = 'reconcile-ledger';
/** Daily at 03:17 UTC (pg-boss runs one job per slot, whatever the number of servers). */
export const RECONCILE_CRON = '17 3 * * *';

/**
 * The daily reconciliation: every account's kept balance and reservations against the sum of its ledger entries. The
 * books agree, or each account that differs is logged as an error with both figures, for the operator's alert.
 */
export async function startReconcileJob(deps: { boss: PgBoss; ledger: Pick<Ledger, 'reconcile'>; log: FastifyBaseLogger }) {
  await deps.boss.createQueue(RECONCILE_QUEUE, { name: RECONCILE_QUEUE, retryLimit: 1, expireInSeconds: 60 * 60 });
  await deps.boss.schedule(RECONCILE_QUEUE, RECONCILE_CRON, {}, { tz: 'UTC' });
  workQueue(deps.boss, RECONCILE_QUEUE, { pollingIntervalSeconds: 60, log: deps.log }, async () => {
    const differing = await deps.ledger.reconcile();
    if (differing.length > 0) deps.log.error({ accounts: differing }, 'ledger reconciliation: kept balances differ from their entries');
    else deps.log.info('ledger reconciliation: every kept balance equals its entries');
    return { differing: differing.length };
  });
}
