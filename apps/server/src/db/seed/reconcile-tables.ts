import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.ts';

/** A month's (or any period's) reconciliation of one account: what a finance lead checks before closing the books. */
export type TableReconciliation = {
  /** the account's entries in the period (opening balances aside) */
  entries: number;
  /** entries shown by no row, or by more than one, of the tables of the account's wallet */
  unmatched: number;
  /** the sum of the entries, and of the same entries table by table (they partition it), as decimal strings */
  total: string;
  byTable: Record<'payments' | 'collections' | 'settlements' | 'fees' | 'initiated_payments', string>;
  /** Fees rows of the period and wallet, what they add up to, and how many of them are no fee entry */
  feeRows: number;
  feeRowsTotal: string;
  /** what the fee entries took (positive) */
  feesTaken: string;
  feeRowsNotBooked: number;
};

/**
 * Every ledger entry of `currency` in [from, to) against the rows of the transaction tables of that wallet, in a few
 * set-based statements (so that it runs on the 1,000,000-row seed as on the demo's): a payment's entries are its row
 * of Payments (or, for a commercial partner, of Initiated payments when it has no payments row), a collection's its
 * row of Collections, a withdrawal's or top-up's its row of Settlements, and a fee's (taken or given back) its row of
 * Fees at the entry's moment for the same amount. A row of a wallet without one is the USD wallet's.
 */
export async function reconcileTables(db: Kysely<DB>, partnerId: string, currency: string, from: Date, to: Date): Promise<TableReconciliation> {
  const { rows } = await sql<{
    entries: number;
    unmatched: number;
    total: string | null;
    payments: string | null;
    collections: string | null;
    settlements: string | null;
    fees: string | null;
    initiated: string | null;
  }>`
    with e as (
      select id, kind, reference, amount, created_at from ledger_entries
      where partner_id = ${partnerId} and currency = ${currency} and kind <> 'opening_balance' and created_at >= ${from} and created_at < ${to}
    ),
    shown as (
      select e.id, e.amount,
        (select count(*) from payments r where e.kind in ('disbursement', 'disbursement_reversal', 'disbursement_refund')
           and r.partner_id = ${partnerId} and r.id = ledger_reference_uuid(e.reference) and coalesce(r.fiat_wallet, 'USD') = ${currency}) as in_payments,
        (select count(*) from collections r where e.kind in ('collection', 'collection_refund')
           and r.partner_id = ${partnerId} and r.id = ledger_reference_uuid(e.reference) and coalesce(r.fiat_wallet, 'USD') = ${currency}) as in_collections,
        (select count(*) from settlements r where e.kind in ('settlement', 'settlement_reversal', 'topup')
           and r.partner_id = ${partnerId} and r.id = ledger_reference_uuid(e.reference) and coalesce(r.fiat_wallet, 'USD') = ${currency}) as in_settlements,
        (select count(*) from fees f where e.kind in ('disbursement_fee', 'collection_fee', 'disbursement_fee_reversal')
           and f.partner_id = ${partnerId} and f.transaction_id = ledger_reference_uuid(e.reference) and f.amount_usd = -e.amount and f.created_at = e.created_at
           and coalesce(f.fiat_wallet, 'USD') = ${currency}) as in_fees,
        (select count(*) from initiated_payments i where e.kind in ('disbursement', 'disbursement_reversal', 'disbursement_refund')
           and i.partner_id = ${partnerId} and i.id = ledger_reference_uuid(e.reference) and coalesce(i.fiat_wallet, 'USD') = ${currency}
           and not exists (select 1 from payments m where m.partner_id = i.partner_id and m.id = i.id)) as in_initiated
      from e
    )
    select count(*)::int as entries,
      count(*) filter (where in_payments + in_collections + in_settlements + in_fees + in_initiated <> 1)::int as unmatched,
      sum(amount)::text as total,
      sum(amount) filter (where in_payments = 1)::text as payments,
      sum(amount) filter (where in_collections = 1)::text as collections,
      sum(amount) filter (where in_settlements = 1)::text as settlements,
      sum(amount) filter (where in_fees = 1)::text as fees,
      sum(amount) filter (where in_initiated = 1)::text as initiated
    from shown`.execute(db);
  const r = rows[0]!;
  const fees = await sql<{ rows: number; total: string | null; taken: string | null; not_booked: number }>`
    select
      (select count(*)::int from fees f where f.partner_id = ${partnerId} and coalesce(f.fiat_wallet, 'USD') = ${currency}
         and f.created_at >= ${from} and f.created_at < ${to}) as rows,
      (select sum(amount_usd)::text from fees f where f.partner_id = ${partnerId} and coalesce(f.fiat_wallet, 'USD') = ${currency}
         and f.created_at >= ${from} and f.created_at < ${to}) as total,
      (select (-sum(amount))::text from ledger_entries where partner_id = ${partnerId} and currency = ${currency}
         and kind in ('disbursement_fee', 'collection_fee', 'disbursement_fee_reversal') and created_at >= ${from} and created_at < ${to}) as taken,
      (select count(*)::int from fees f where f.partner_id = ${partnerId} and coalesce(f.fiat_wallet, 'USD') = ${currency}
         and f.created_at >= ${from} and f.created_at < ${to}
         and not exists (select 1 from ledger_entries l where l.partner_id = f.partner_id and l.currency = ${currency}
           and l.kind in ('disbursement_fee', 'collection_fee', 'disbursement_fee_reversal')
           and l.reference = f.transaction_id::text and l.amount = -f.amount_usd and l.created_at = f.created_at)) as not_booked`.execute(db);
  const f = fees.rows[0]!;
  const zero = (v: string | null) => v ?? '0';
  return {
    entries: r.entries,
    unmatched: r.unmatched,
    total: zero(r.total),
    byTable: {
      payments: zero(r.payments),
      collections: zero(r.collections),
      settlements: zero(r.settlements),
      fees: zero(r.fees),
      initiated_payments: zero(r.initiated),
    },
    feeRows: f.rows,
    feeRowsTotal: zero(f.total),
    feesTaken: zero(f.taken),
    feeRowsNotBooked: f.not_booked,
  };
}
