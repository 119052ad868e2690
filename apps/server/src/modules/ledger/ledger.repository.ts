import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * The ledger's SQL: currency accounts (their kept balance and reservations), ledger entries, statements, the
 * reconciliation, and each account's low balance alert state. No other module reads or writes these tables.
 */

type Executor = Kysely<DB> | Transaction<DB>;

/**
 * Locks the partner's currency account row until commit (`select ... for update`) and reads its balance after the
 * lock: spending from one account runs one request after the other from here, so the balance read cannot be spent
 * twice. Undefined when there is no account. Whether the partner uses fiat wallets comes along (read, not locked).
 */
export async function lockAccount(trx: Transaction<DB>, partnerId: string, currency: string) {
  const row = await trx
    .selectFrom('currency_accounts as a')
    .innerJoin('partners as p', 'p.id', 'a.partner_id')
    .select(['a.balance', 'p.fiat_wallets_enabled'])
    .where('a.partner_id', '=', partnerId)
    .where('a.currency', '=', currency)
    .forUpdate('a')
    .executeTakeFirst();
  return row ? { balance: String(row.balance), fiatWalletsEnabled: row.fiat_wallets_enabled } : undefined;
}

/** The account's balance: the sum of its ledger entries, as the database keeps it with each entry ('0' without an account). */
export async function accountBalance(db: Executor, partnerId: string, currency: string): Promise<string> {
  const row = await db
    .selectFrom('currency_accounts')
    .select('balance')
    .where('partner_id', '=', partnerId)
    .where('currency', '=', currency)
    .executeTakeFirst();
  return row ? String(row.balance) : '0';
}

/** A ledger entry; its (partner, kind, reference) is unique, so one movement is never booked twice. */
export async function insertLedgerEntry(
  trx: Transaction<DB>,
  entry: { partnerId: string; currency: string; amount: string; kind: string; reference: string; at: Date },
) {
  await trx
    .insertInto('ledger_entries')
    .values({ partner_id: entry.partnerId, currency: entry.currency, amount: entry.amount, kind: entry.kind, reference: entry.reference, created_at: entry.at })
    .execute();
}

/** Books the entry unless one of its kind and reference is booked already; whether it was booked now. */
export async function insertLedgerEntryOnce(
  trx: Transaction<DB>,
  entry: { partnerId: string; currency: string; amount: string; kind: string; reference: string; at: Date },
): Promise<boolean> {
  const row = await trx
    .insertInto('ledger_entries')
    .values({ partner_id: entry.partnerId, currency: entry.currency, amount: entry.amount, kind: entry.kind, reference: entry.reference, created_at: entry.at })
    .onConflict((oc) => oc.columns(['partner_id', 'kind', 'reference']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * For tests and the benchmarks: an account's sum of entries read from the entries themselves, how many there are and
 * how many distinct (kind, reference) pairs, and its withdrawal debits and reversals, in one snapshot.
 */
export async function ledgerSummary(db: Executor, partnerId: string, currency: string) {
  const r = await sql<{ balance: string; entries: number; distinct_entries: number; debits: number; reversals: number; distinct_refs: number }>`
    select coalesce(sum(amount), 0)::text as balance, count(*)::int as entries, count(distinct (kind, reference))::int as distinct_entries,
      count(*) filter (where kind = 'settlement')::int as debits,
      count(*) filter (where kind = 'settlement_reversal')::int as reversals,
      count(distinct reference) filter (where kind = 'settlement')::int as distinct_refs
    from ledger_entries where partner_id = ${partnerId} and currency = ${currency}`.execute(db);
  return r.rows[0]!;
}

/**
 * What is reserved but not finished, as the database keeps it with each entry and each change of status: the debits of
 * withdrawals still pending or processing, and the debits (amount and fee) of disbursements not yet final. An order or
 * withdrawal without a ledger entry reserves nothing. Both are USD.
 */
export async function pendingTotals(db: Executor, partnerId: string) {
  const r = await sql<{ withdrawals: string; disbursements: string }>`
    select coalesce(sum(pending_withdrawals), 0)::text as withdrawals, coalesce(sum(pending_disbursements), 0)::text as disbursements
    from currency_accounts where partner_id = ${partnerId}`.execute(db);
  return r.rows[0]!;
}

/** A disbursement in one of these is final or past its sending: its reservation is no longer "under way" (as migration 0039's triggers say). */
const DISBURSEMENT_DONE = ['complete', 'expired', 'failed', 'denied', 'refunded', 'cancelled', 'refund_failed', 'pending_refund', 'refund_processing'];

/**
 * The check of what the database keeps: each account's kept balance and reservations against the sum of its ledger
 * entries (and, for the reservations, the entries of what is under way). The accounts that differ, with both figures;
 * none when the books agree. It reads every entry: for the tests and the daily reconciliation, never a screen.
 */
export async function reconcileAccounts(db: Executor, partnerId?: string) {
  const r = await sql<{
    partner_id: string;
    currency: string;
    balance: string;
    entries: string;
    pending_withdrawals: string;
    withdrawals: string;
    pending_disbursements: string;
    disbursements: string;
  }>`
    select partner_id, currency, balance::text, entries::text, pending_withdrawals::text, withdrawals::text, pending_disbursements::text,
      disbursements::text
    from (
      select a.partner_id, a.currency, a.balance, a.pending_withdrawals, a.pending_disbursements,
        coalesce((select sum(amount) from ledger_entries l where l.partner_id = a.partner_id and l.currency = a.currency), 0) as entries,
        coalesce((select -sum(l.amount) from ledger_entries l
          join settlements s on s.partner_id = l.partner_id and s.id = ledger_reference_uuid(l.reference)
          where l.partner_id = a.partner_id and l.currency = a.currency and l.kind = 'settlement' and s.status in ('pending', 'processing')), 0) as withdrawals,
        coalesce((select -sum(l.amount) from ledger_entries l
          join payment_orders o on o.partner_id = l.partner_id and o.id = ledger_reference_uuid(l.reference)
          where l.partner_id = a.partner_id and l.currency = a.currency and l.kind in ('disbursement', 'disbursement_fee') and o.kind = 'disbursement'
            and o.status not in (${sql.join(DISBURSEMENT_DONE)})), 0) as disbursements
      from currency_accounts a
      ${partnerId ? sql`where a.partner_id = ${partnerId}` : sql``}
    ) k
    where balance <> entries or pending_withdrawals <> withdrawals or pending_disbursements <> disbursements
    order by partner_id, currency`.execute(db);
  return r.rows;
}

/**
 * Withdrawals without exactly one debit: every payout settlement is booked once, as a `settlement` entry of its id,
 * when it is requested (a failure adds a reversal, never a second debit). One found here was lost or doubled.
 */
export async function unmatchedWithdrawals(db: Executor) {
  const r = await sql<{ partner_id: string; id: string; status: string; debits: number }>`
    select s.partner_id, s.id::text as id, s.status, count(l.id)::int as debits
    from settlements s
    left join ledger_entries l on l.partner_id = s.partner_id and l.kind = 'settlement' and l.reference = s.id::text
    where s.type = 'payout'
    group by s.partner_id, s.id, s.status
    having count(l.id) <> 1
    order by s.partner_id, s.id`.execute(db);
  return r.rows;
}

export type ReconciliationRun = {
  accountsChecked: number;
  differingAccounts: Awaited<ReturnType<typeof reconcileAccounts>>;
  unmatchedWithdrawals: Awaited<ReturnType<typeof unmatchedWithdrawals>>;
};

/** Keeps a reconciliation's outcome for a person to read (reconciliation_runs). */
export async function recordReconciliation(db: Executor, run: ReconciliationRun, at: Date) {
  await db
    .insertInto('reconciliation_runs')
    .values({
      ran_at: at,
      accounts_checked: run.accountsChecked,
      differing_accounts: JSON.stringify(run.differingAccounts),
      unmatched_withdrawals: JSON.stringify(run.unmatchedWithdrawals),
    })
    .execute();
}

/** The latest reconciliation: when, and how many accounts and withdrawals it found wrong; undefined before the first. */
export async function lastReconciliation(db: Executor) {
  const row = await db
    .selectFrom('reconciliation_runs')
    .select([
      'ran_at',
      'accounts_checked',
      sql<number>`jsonb_array_length(differing_accounts)`.as('differing'),
      sql<number>`jsonb_array_length(unmatched_withdrawals)`.as('unmatched'),
    ])
    .orderBy('ran_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (
    row && {
      ranAt: new Date(row.ran_at),
      accountsChecked: row.accounts_checked,
      differingAccounts: Number(row.differing),
      unmatchedWithdrawals: Number(row.unmatched),
    }
  );
}

/** How many currency accounts there are (what `reconcile` checked). */
export async function countAccounts(db: Executor) {
  const row = await db
    .selectFrom('currency_accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's last ledger entries, newest first. */
export function recentLedgerEntries(db: Executor, partnerId: string, currency: string, limit: number) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'kind', 'reference', 'amount', 'currency', 'created_at'])
    .where('partner_id', '=', partnerId)
    .where('currency', '=', currency)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A statement's numbers for [from, to): the opening balance, how many entries, and (when `limit` allows) the entries
 * in time order with their running balance, computed by the database.
 */
export async function statementOf(db: Executor, partnerId: string, currency: string, from: Date, to: Date, limit: number) {
  const head = await sql<{ opening: string; count: string }>`
    select
      -- the kept balance less what came after the period's start: reads the entries since then, not the account's history
      (coalesce((select balance from currency_accounts where partner_id = ${partnerId} and currency = ${currency}), 0)
        - coalesce((select sum(amount) from ledger_entries where partner_id = ${partnerId} and currency = ${currency} and created_at >= ${from}), 0))::text as opening,
      (select count(*) from ledger_entries where partner_id = ${partnerId} and currency = ${currency} and created_at >= ${from} and created_at < ${to})::text as count
  `.execute(db);
  const { opening, count } = head.rows[0]!;
  if (Number(count) > limit) return { opening, count: Number(count), entries: undefined };
  const rows = await sql<{ created_at: Date; kind: string; reference: string; amount: string; running: string }>`
    select created_at, kind, reference, amount::text as amount,
      (${opening}::numeric + sum(amount) over (order by created_at, id rows between unbounded preceding and current row))::text as running
    from ledger_entries
    where partner_id = ${partnerId} and currency = ${currency} and created_at >= ${from} and created_at < ${to}
    order by created_at, id
  `.execute(db);
  return { opening, count: Number(count), entries: rows.rows };
}

/** Each currency account's available amount: the sum of its ledger entries as the database keeps it, a decimal string. */
export function accountBalances(db: Executor, partnerId: string) {
  return db.selectFrom('currency_accounts').where('partner_id', '=', partnerId).select(['currency', 'balance as available']).orderBy('currency').execute();
}

/** Opens the partner's account in a currency when it has none. */
export async function openAccount(trx: Transaction<DB>, partnerId: string, currency: string) {
  await trx
    .insertInto('currency_accounts')
    .values({ partner_id: partnerId, currency })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The partner's low balance limit and name, and whether the account's alert stands at other than clear (a limit
 * removed while the balance was low): one statement, read before any lock.
 */
export async function lowBalanceLimit(trx: Transaction<DB>, partnerId: string, currency: string) {
  const row = await trx
    .selectFrom('partners as p')
    .leftJoin('low_balance_alerts as a', (j) => j.onRef('a.partner_id', '=', 'p.id').on('a.currency', '=', currency))
    .select(['p.low_balance_limit', 'p.name', 'a.state'])
    .where('p.id', '=', partnerId)
    .executeTakeFirst();
  return { limit: row?.low_balance_limit ?? null, name: row?.name ?? 'your account', alerted: row?.state != null && row.state !== 'ok' };
}

/**
 * Takes the account's low balance alert row for this transaction (created on first use) and reads, after the lock,
 * the state last told and the balance (this transaction's entries and every committed one). Transactions that move
 * the balance at once queue here, so each crossing is told once.
 */
export async function lockLowBalance(trx: Transaction<DB>, partnerId: string, currency: string) {
  await trx
    .insertInto('low_balance_alerts')
    .values({ partner_id: partnerId, currency, state: 'ok' })
    .onConflict((oc) => oc.columns(['partner_id', 'currency']).doNothing())
    .execute();
  await trx
    .selectFrom('low_balance_alerts')
    .select('state')
    .where('partner_id', '=', partnerId)
    .where('currency', '=', currency)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // a statement of its own after the lock: under read committed it sees what committed while this one waited
  const r = await sql<{ state: string; balance: string }>`
    select a.state, coalesce((select balance from currency_accounts where partner_id = ${partnerId} and currency = ${currency}), 0)::text as balance
    from low_balance_alerts a where a.partner_id = ${partnerId} and a.currency = ${currency}`.execute(trx);
  return r.rows[0]!;
}

export async function setLowBalanceState(trx: Transaction<DB>, partnerId: string, currency: string, state: string, at: Date) {
  await trx.updateTable('low_balance_alerts').set({ state, changed_at: at }).where('partner_id', '=', partnerId).where('currency', '=', currency).execute();
}

/**
 * An account at several instants: its kept balance and reservations now, and the sum of its entries in each step of
 * `ends` (ascending): step k (from 1) holds the entries booked at or after the k-th end and before the next one, the
 * last step those from the last end on. Reads the entries since the first end only.
 */
export async function accountHistory(db: Executor, partnerId: string, currency: string, ends: Date[]) {
  const account = await db
    .selectFrom('currency_accounts')
    .select(['balance', 'pending_withdrawals', 'pending_disbursements'])
    .where('partner_id', '=', partnerId)
    .where('currency', '=', currency)
    .executeTakeFirst();
  const first = ends[0];
  const steps = first
    ? await sql<{ step: number; sum: string }>`
      select width_bucket(created_at, ${ends.map((e) => e.toISOString())}::timestamptz[]) as step, sum(amount)::text as sum
      from ledger_entries
      where partner_id = ${partnerId} and currency = ${currency} and created_at >= ${first}
      group by 1`.execute(db)
    : { rows: [] };
  const sums = new Map(steps.rows.map((r) => [Number(r.step), r.sum]));
  return {
    balance: account ? String(account.balance) : '0',
    pendingWithdrawals: account ? String(account.pending_withdrawals) : '0',
    pendingDisbursements: account ? String(account.pending_disbursements) : '0',
    sums,
  };
}
