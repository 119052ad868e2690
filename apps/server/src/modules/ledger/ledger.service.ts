import type { Kysely, Transaction } from 'kysely';
import { fromUnits, toUnits } from '@portal/contract/decimal';
import { LOW_BALANCE_APPROACHING_PERCENT } from '@portal/contract/notifications';
import type { DB } from '../../db/schema.ts';
import {
  accountBalance,
  accountBalances,
  accountHistory,
  countAccounts,
  insertLedgerEntry,
  insertLedgerEntryOnce,
  lastReconciliation,
  lockAccount,
  lockLowBalance,
  lowBalanceLimit,
  openAccount,
  pendingTotals,
  reconcileAccounts,
  recordReconciliation,
  recentLedgerEntries,
  setLowBalanceState,
  statementOf,
  unmatchedWithdrawals,
  type ReconciliationRun,
} from './ledger.repository.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** One movement of money: its (partner, kind, reference) is unique, so a movement is never booked twice. */
export type LedgerEntry = { partnerId: string; currency: string; amount: string; kind: string; reference: string; at: Date };

/** Where a balance stands against the partner's low balance limit. */
export type LowBalanceState = 'ok' | 'approaching' | 'below';

/** A change of the low balance state, for the notifier to tell: from what to what, the balance and the limit. */
export type LowBalanceCrossing = { from: string; to: LowBalanceState; balance: string; limit: string; partnerName: string };

/**
 * The partner's money. Every balance, lock, booking, statement and reconciliation goes through here; other modules
 * get this port (or a `Pick` of it) from the composition root and pass their own transaction where a booking belongs
 * to their change. The rules it keeps:
 * - a balance is the sum of its account's ledger entries; the database keeps it on the account row with each entry
 *   (migration 0039), so reading one costs the same at any size; `runReconciliation` re-adds the entries (daily);
 * - entries are only ever added (a correction is a new entry), and each (partner, kind, reference) at most once;
 * - spending locks the account first (`lock`) and checks the balance read after the lock, in the same transaction
 *   as the booking: two requests never spend the same money;
 * - what is reserved (withdrawals and disbursements under way) is kept beside the balance by the same triggers.
 */
export function createLedger(db: Kysely<DB>) {
  const checkBooks = async (): Promise<ReconciliationRun> => ({
    accountsChecked: await countAccounts(db),
    differingAccounts: await reconcileAccounts(db),
    unmatchedWithdrawals: await unmatchedWithdrawals(db),
  });
  const snapshot = <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().setIsolationLevel('repeatable read').execute(work);

  return {
    /** Locks the account until commit and reads its balance after the lock; undefined when there is no account. */
    lock: (trx: Transaction<DB>, partnerId: string, currency: string) => lockAccount(trx, partnerId, currency),

    /** The account's balance ('0' without an account), read in `within` when given (a transaction's own view). */
    balance: (partnerId: string, currency: string, within: Executor = db) => accountBalance(within, partnerId, currency),

    /** Each of the partner's accounts with its available amount, by currency. */
    balances: (partnerId: string, within: Executor = db) => accountBalances(within, partnerId),

    /** Books an entry in the caller's transaction (after `lock` when it spends). */
    book: (trx: Transaction<DB>, entry: LedgerEntry) => insertLedgerEntry(trx, entry),

    /** Books the entry unless its kind and reference are booked already (a retried request); whether it was booked now. */
    bookOnce: (trx: Transaction<DB>, entry: LedgerEntry) => insertLedgerEntryOnce(trx, entry),

    /** Opens an account in a currency when the partner has none (a fiat wallet set up). */
    open: (trx: Transaction<DB>, partnerId: string, currency: string) => openAccount(trx, partnerId, currency),

    /** The balance, what is reserved and still under way, and the last `recent` movements, in one snapshot. */
    overview: (partnerId: string, currency: string, recent: number) =>
      snapshot(async (trx) => ({
        available: await accountBalance(trx, partnerId, currency),
        pending: await pendingTotals(trx, partnerId),
        recent: await recentLedgerEntries(trx, partnerId, currency, recent),
      })),

    /**
     * The account's balance at each of `ends` (ascending instants; one in the future reads as now), with the balance
     * and reservations now, in one snapshot: the kept balance less the entries booked at or after each end, so it
     * reads the entries since the first end, not the account's history.
     */
    history: (partnerId: string, currency: string, ends: Date[]) =>
      snapshot(async (trx) => {
        const h = await accountHistory(trx, partnerId, currency, ends);
        const at = ends.map(() => 0n);
        let after = 0n;
        for (let k = ends.length; k >= 1; k--) {
          after += toUnits(h.sums.get(k) ?? '0');
          at[k - 1] = after;
        }
        const balance = toUnits(h.balance);
        return {
          current: h.balance,
          pending: { withdrawals: h.pendingWithdrawals, disbursements: h.pendingDisbursements },
          points: ends.map((end, k) => ({ at: end, balance: fromUnits(balance - at[k]!) })),
        };
      }),

    /**
     * The statement of [from, to) in one snapshot: the opening balance, how many entries, and (when there are at most
     * `limit`) the entries in time order with their running balance.
     */
    statement: (partnerId: string, currency: string, from: Date, to: Date, limit: number) =>
      snapshot((trx) => statementOf(trx, partnerId, currency, from, to, limit)),

    /**
     * The daily check in full, kept for a person to read (reconciliation_runs): the accounts whose kept figures differ
     * from their entries, and the withdrawals without exactly one debit. The metrics show the latest run's counts.
     */
    runReconciliation: async (at: Date): Promise<ReconciliationRun> => {
      const run = await checkBooks();
      await recordReconciliation(db, run, at);
      return run;
    },

    /** The same check, not kept (the operator's `reconcile` command: after a restore, say). */
    checkReconciliation: checkBooks,

    /** The latest reconciliation's time and counts (undefined before the first). */
    lastReconciliation: () => lastReconciliation(db),

    /**
     * After a change of the balance or of the limit, in its transaction: the account's low balance state, moved when
     * the balance crossed into another one (kept per account under a row lock, so each crossing is reported once
     * however many changes land at once). The crossing when there is a limit to tell about; no limit, no lock.
     */
    async lowBalance(trx: Transaction<DB>, partnerId: string, currency: string, at: Date): Promise<LowBalanceCrossing | undefined> {
      const { limit, name, alerted } = await lowBalanceLimit(trx, partnerId, currency);
      // no limit, no alert, and no lock: payments of a partner without a limit never queue here
      if (!limit && !alerted) return undefined;
      const s = await lockLowBalance(trx, partnerId, currency);
      const state = lowBalanceState(s.balance, limit);
      if (state === s.state) return undefined;
      await setLowBalanceState(trx, partnerId, currency, state, at);
      return limit ? { from: s.state, to: state, balance: s.balance, limit, partnerName: name } : undefined;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/** Where a balance stands against a limit: below it, within 20% above it, or clear of it (no limit: clear). */
export function lowBalanceState(balance: string, limit: string | null): LowBalanceState {
  if (!limit) return 'ok';
  const b = toUnits(balance);
  const l = toUnits(limit);
  if (b < l) return 'below';
  // balance < limit × (100 + 20) / 100, in exact units
  return b * 100n < l * BigInt(100 + LOW_BALANCE_APPROACHING_PERCENT) ? 'approaching' : 'ok';
}
