import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * The demo ledger: the entries the demo's transaction rows imply, by the rules the server books real ones with
 * (modules/payments/payment-changes.ts, modules/withdrawals), so that a statement reconciles to the transaction
 * tables to the cent:
 * - a payment (disbursement) reserves its amount and its fee when it is made; one that failed, expired or was denied
 *   gives both back; one refunded by the recipient's side gives the amount back (the fee was earned);
 * - a collection credits its amount and takes its fee when it completes; one refunded is first credited, then gives
 *   the amount back;
 * - a withdrawal (a settlement of type payout) takes its amount when it is asked for; a failed one gives it back; a
 *   completed top-up (a settlement of type topup) credits its amount.
 * A row on a local-currency fiat wallet (NGN, KES) moves that wallet's account in its local amount, without a fee (fees
 * are charged in USD, on USD rows only: the demo writes fee rows for those); every other row moves the USD account.
 * Each entry is unique by (partner, kind, reference), so booking again books nothing twice. Then each account's opening
 * balance is set, dated the day before its first movement: what makes it end at `targets` (the demo's balances), or
 * more when that would take the account below zero at some moment (no account ever goes negative).
 */
export async function bookDemoLedger(db: Kysely<DB>, partnerId: string, targets: Record<string, string>): Promise<void> {
  const p = sql`${partnerId}::uuid`;
  await db.transaction().execute(async (trx) => {
    // statistics of the rows just loaded, before the booking joins them: planned on the counts of before (the demo's
    // thousand rows), the booking of 100,000 rows per table and its kept-balance trigger ran for more than 14 minutes
    await sql`analyze payments, collections, settlements, fees`.execute(trx);
    // the accounts a row may move (a wallet's currency), as the portal would have them
    await sql`
      insert into currency_accounts (partner_id, currency)
      select distinct ${p}, c from (
        select coalesce(fiat_wallet, 'USD') as c from payments where partner_id = ${p}
        union select coalesce(fiat_wallet, 'USD') from collections where partner_id = ${p}
        union select 'USD'
      ) w
      on conflict do nothing`.execute(trx);

    // a row's account and amount: its local wallet in local currency, else USD; its fee (USD rows only)
    const rows = (table: 'payments' | 'collections') => sql`
      select r.id::text as ref, r.status, r.created_at,
        case when r.fiat_wallet is not null and r.fiat_wallet <> 'USD' then r.fiat_wallet else 'USD' end as currency,
        case when r.fiat_wallet is not null and r.fiat_wallet <> 'USD' then r.amount else r.converted_amount end as amount,
        case when r.fiat_wallet is null or r.fiat_wallet = 'USD' then coalesce(f.amount_usd, 0) else 0 end as fee
      from ${sql.table(table)} r
      left join fees f on f.partner_id = r.partner_id and f.transaction_id = r.id
      where r.partner_id = ${p}`;
    // after the row, within the hour, never in the future
    const later = (x: string) => sql.raw(`least(${x}.created_at + interval '10 minutes', now())`);
    // every movement in one statement: each table is read once
    await sql`
      with pay as materialized (${rows('payments')}),
      col as materialized (${rows('collections')}),
      st as materialized (select id::text as ref, status, type, created_at, fiat_amount_usd as amount from settlements where partner_id = ${p}),
      e (currency, amount, kind, ref, at) as (
        select currency, -amount, 'disbursement', ref, created_at from pay
        union all select currency, -fee, 'disbursement_fee', ref, created_at from pay
        union all select currency, amount + fee, 'disbursement_reversal', ref, ${later('pay')} from pay where status in ('failed', 'expired', 'denied')
        union all select currency, amount, 'disbursement_refund', ref, ${later('pay')} from pay where status = 'refunded'
        union all select currency, amount, 'collection', ref, created_at from col where status in ('complete', 'refunded')
        union all select currency, -fee, 'collection_fee', ref, created_at from col where status in ('complete', 'refunded')
        union all select currency, -amount, 'collection_refund', ref, ${later('col')} from col where status = 'refunded'
        union all select 'USD', -amount, 'settlement', ref, created_at from st where type = 'payout'
        union all select 'USD', amount, 'settlement_reversal', ref, ${later('st')} from st where type = 'payout' and status = 'failed'
        union all select 'USD', amount, 'topup', ref, created_at from st where type = 'topup' and status = 'complete'
      )
      insert into ledger_entries (partner_id, currency, amount, kind, reference, created_at)
      select ${p}, currency, amount, kind, ref, at from e where amount <> 0
      on conflict (partner_id, kind, reference) do nothing`.execute(trx);

    // each account's opening: the target less the movements, or enough that the lowest point is zero
    const accounts = await sql<{ currency: string; total: string; lowest: string; first: Date | null }>`
      select a.currency,
        coalesce((select sum(amount) from ledger_entries where partner_id = ${p} and currency = a.currency and kind <> 'opening_balance'), 0)::text as total,
        coalesce((select min(running) from (
          select sum(amount) over (order by created_at, id) as running from ledger_entries
          where partner_id = ${p} and currency = a.currency and kind <> 'opening_balance') r), 0)::text as lowest,
        (select min(created_at) from ledger_entries where partner_id = ${p} and currency = a.currency and kind <> 'opening_balance') as first
      from currency_accounts a where a.partner_id = ${p}`.execute(trx);
    for (const a of accounts.rows) {
      const reference = `demo-opening-${a.currency}`;
      const target = targets[a.currency] ?? '0';
      const opening = await sql<{ amount: string }>`
        select greatest(${target}::numeric - ${a.total}::numeric, -least(${a.lowest}::numeric, 0), 0)::text as amount`.execute(trx);
      const amount = opening.rows[0]!.amount;
      const at = sql`least(coalesce(${a.first}::timestamptz, now()), now()) - interval '1 day'`;
      await sql`delete from ledger_entries where partner_id = ${p} and kind = 'opening_balance' and reference = ${reference}`.execute(trx);
      if (Number(amount) !== 0) {
        await sql`insert into ledger_entries (partner_id, currency, amount, kind, reference, created_at)
          values (${p}, ${a.currency}, ${amount}::numeric, 'opening_balance', ${reference}, ${at})`.execute(trx);
      }
    }
  });
}
