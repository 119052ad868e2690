import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, SettlementRequestsTable, SettlementsTable } from '../../db/schema.ts';

/** Withdrawals' SQL: the account lock, the balance, the settlement row, its request and its ledger entries. */

type Executor = Kysely<DB> | Transaction<DB>;
export type SettlementRow = Selectable<SettlementsTable>;
export type RequestRow = Selectable<SettlementRequestsTable>;
export type WithdrawalRow = RequestRow & { settlement: SettlementRow };

/**
 * Locks the partner's currency account row until commit (`select ... for update`): withdrawals of one account run
 * one after the other from here, so the balance read next cannot be spent twice. Undefined when there is no account.
 * Whether the partner uses fiat wallets comes along (its row is read, not locked).
 */
export async function lockAccount(trx: Transaction<DB>, partnerId: string, currency: string) {
  return trx
    .selectFrom('currency_accounts as a')
    .innerJoin('partners as p', 'p.id', 'a.partner_id')
    .select(['a.currency', 'p.fiat_wallets_enabled'])
    .where('a.partner_id', '=', partnerId)
    .where('a.currency', '=', currency)
    .forUpdate('a')
    .executeTakeFirst();
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

/**
 * After the lock, in one statement (one snapshot, one round trip while the lock is held): reads the account's balance
 * and whether the sequenceId was booked already (by a copy of the request that held the lock first), and only when
 * it was not and the balance covers the amount, books the withdrawal: its settlement row (pending), its request row and
 * its ledger debit. `booked` is the settlement of an earlier copy; `bookedNow` whether this call booked it.
 */
export async function bookIfCovered(
  trx: Transaction<DB>,
  w: {
    settlement: Omit<Insertable<SettlementsTable>, 'status' | 'wallet_balance_usd'> & { created_at: Date };
    request: Omit<Insertable<SettlementRequestsTable>, 'failure_reason' | 'settlement_id' | 'partner_id' | 'sequence_id' | 'created_at'>;
    currency: string;
  },
) {
  const { settlement: s, request: r, currency } = w;
  const amount = s.fiat_amount_usd;
  const result = await sql<{ balance: string; booked: string | null; balance_after: string | null }>`
    with b as (
      select coalesce((select balance from currency_accounts where partner_id = ${s.partner_id} and currency = ${currency}), 0) as balance
    ), seen as (
      select settlement_id from settlement_requests where partner_id = ${s.partner_id} and sequence_id = ${s.sequence_id}
    ), ok as (
      select balance from b where balance >= ${amount}::numeric and not exists (select 1 from seen)
    ), ins_settlement as (
      insert into settlements (partner_id, id, created_at, status, type, transaction_hash, internal_wallet_address, external_wallet_address,
        crypto_currency, crypto_amount, network, crypto_rate, fiat_amount_usd, wallet_balance_usd, fiat_amount, fiat_rate, fiat_wallet, sequence_id)
      select ${s.partner_id}, ${s.id}, ${s.created_at}, 'pending', ${s.type}, null, ${s.internal_wallet_address}, ${s.external_wallet_address},
        ${s.crypto_currency}, ${s.crypto_amount}, ${s.network}, ${s.crypto_rate}, ${amount}, ok.balance - ${amount}::numeric, ${s.fiat_amount ?? null}, ${s.fiat_rate ?? null}, ${s.fiat_wallet ?? null}, ${s.sequence_id}
      from ok
      returning id, wallet_balance_usd
    ), ins_request as (
      insert into settlement_requests (partner_id, sequence_id, settlement_id, fingerprint, wallet_id, requested_by, amount, currency, fee_amount, wallet_tag,
        travel_rule_name, travel_rule_registration_number, failure_reason, created_at)
      select ${s.partner_id}, ${s.sequence_id}, ins_settlement.id, ${r.fingerprint}, ${r.wallet_id}, ${r.requested_by}, ${r.amount}, ${r.currency}, ${r.fee_amount}, ${r.wallet_tag ?? null},
        ${r.travel_rule_name ?? null}, ${r.travel_rule_registration_number ?? null}, null, ${s.created_at}
      from ins_settlement
      returning settlement_id
    ), ins_debit as (
      insert into ledger_entries (partner_id, currency, amount, kind, reference, created_at)
      select ${s.partner_id}, ${currency}, -${amount}::numeric, 'settlement', ins_settlement.id::text, ${s.created_at} from ins_settlement
      returning id
    )
    select b.balance::text as balance, (select settlement_id::text from seen) as booked, (select wallet_balance_usd::text from ins_settlement) as balance_after
    from b`.execute(trx);
  const row = result.rows[0]!;
  return { balance: row.balance, booked: row.booked, bookedNow: row.balance_after !== null, balanceAfter: row.balance_after };
}

/** The request of a sequenceId, with its settlement. */
export async function findRequest(db: Executor, partnerId: string, sequenceId: string): Promise<WithdrawalRow | undefined> {
  const request = await db
    .selectFrom('settlement_requests')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('sequence_id', '=', sequenceId)
    .executeTakeFirst();
  if (!request) return undefined;
  const settlement = await findSettlement(db, partnerId, request.settlement_id);
  return settlement ? { ...request, settlement } : undefined;
}

export async function findRequestBySettlement(db: Executor, partnerId: string, settlementId: string): Promise<WithdrawalRow | undefined> {
  const request = await db
    .selectFrom('settlement_requests')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('settlement_id', '=', settlementId)
    .executeTakeFirst();
  if (!request) return undefined;
  const settlement = await findSettlement(db, partnerId, settlementId);
  return settlement ? { ...request, settlement } : undefined;
}

export function findSettlement(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('settlements').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
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

/** Moves a settlement from one of `from` to `to`; undefined when it is in another status (a job ran twice). */
export function updateSettlementStatus(
  trx: Transaction<DB>,
  partnerId: string,
  id: string,
  from: readonly string[],
  to: string,
  changes: Partial<Pick<SettlementsTable, 'transaction_hash' | 'internal_wallet_address'>> = {},
) {
  return trx
    .updateTable('settlements')
    .set({ ...changes, status: to })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
}

export async function setFailureReason(trx: Transaction<DB>, partnerId: string, settlementId: string, reason: string) {
  await trx
    .updateTable('settlement_requests')
    .set({ failure_reason: reason })
    .where('partner_id', '=', partnerId)
    .where('settlement_id', '=', settlementId)
    .execute();
}

/** Withdrawals still pending or processing that were requested before `before` (their jobs may be gone). */
export async function unfinishedWithdrawals(db: Executor, before: Date, limit = 500) {
  return db
    .selectFrom('settlement_requests as r')
    .innerJoin('settlements as s', (j) => j.onRef('s.partner_id', '=', 'r.partner_id').onRef('s.id', '=', 'r.settlement_id'))
    .select(['r.partner_id', 'r.settlement_id', 's.status'])
    .where('s.status', 'in', ['pending', 'processing'])
    .where('r.created_at', '<', before)
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
}

/** For tests and the benchmark: the ledger's sum and the settlement entries of an account, in one snapshot. */
export async function ledgerSummary(db: Executor, partnerId: string, currency: string) {
  const r = await sql<{ balance: string; debits: number; reversals: number; distinct_refs: number }>`
    select coalesce(sum(amount), 0)::text as balance,
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
