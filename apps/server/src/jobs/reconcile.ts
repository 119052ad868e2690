import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Ledger } from '../modules/ledger/index.ts';
import { workQueue } from './queue-worker.ts';

export const RECONCILE_QUEUE = 'reconcile-ledger';
/** Daily at 03:17 UTC (pg-boss runs one job per slot, whatever the number of servers). */
export const RECONCILE_CRON = '17 3 * * *';

/**
 * The daily reconciliation: every account's kept balance and reservations against the sum of its ledger entries, and
 * every withdrawal against its one debit. Its outcome is kept (reconciliation_runs) and shown by the metrics, which
 * the LedgerMismatch alert watches; what differs is also logged as an error with the figures.
 */
export async function startReconcileJob(deps: { boss: PgBoss; ledger: Pick<Ledger, 'runReconciliation'>; log: FastifyBaseLogger }) {
  await deps.boss.createQueue(RECONCILE_QUEUE, { name: RECONCILE_QUEUE, retryLimit: 1, expireInSeconds: 60 * 60 });
  await deps.boss.schedule(RECONCILE_QUEUE, RECONCILE_CRON, {}, { tz: 'UTC' });
  workQueue(deps.boss, RECONCILE_QUEUE, { pollingIntervalSeconds: 60, log: deps.log }, async () => {
    const run = await deps.ledger.runReconciliation(new Date());
    if (run.differingAccounts.length > 0 || run.unmatchedWithdrawals.length > 0) {
      deps.log.error(
        { accounts: run.differingAccounts, withdrawals: run.unmatchedWithdrawals },
        'ledger reconciliation: kept balances differ from their entries, or withdrawals lack their one debit',
      );
    } else deps.log.info({ accounts: run.accountsChecked }, 'ledger reconciliation: every kept balance equals its entries, every withdrawal has its debit');
    return { differing: run.differingAccounts.length, unmatched: run.unmatchedWithdrawals.length };
  });
}
