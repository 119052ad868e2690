import crypto from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { demoAddressOf } from '../../lib/deposit-addresses.ts';
import type { DB } from '../schema.ts';

/**
 * The demo ledger: the entries the demo's transaction rows imply, by the rules the server books real ones with
 * (modules/payments/payment-changes.ts, modules/withdrawals), so that a statement reconciles to the transaction
 * tables to the cent:
 * - a payment (disbursement, or a commercial partner's initiated payment) reserves its amount and its fee when it is made; one that failed, expired or was denied
 *   gives both back (two entries: the amount, and the fee, which Fees lists as given back); one refunded by the recipient's side gives the amount back (the fee was earned);
 * - a collection credits its amount and takes its fee when it completes; one refunded is first credited, then gives
 *   the amount back;
 * - a withdrawal (a settlement of type payout) takes its amount when it is asked for; a failed one gives it back; a
 *   completed top-up (a settlement of type topup) credits its amount.
 * A row on a local-currency fiat wallet (NGN, KES) moves that wallet's account in its local amount, without a fee (fees
 * are charged in USD, on USD rows only: the demo writes fee rows for those); every other row moves the USD account.
 * Each entry is unique by (partner, kind, reference), so booking again books nothing twice. Then each account's opening
 * balance is set, dated the day before its first movement: what makes it end at `targets` (the demo's balances), or
 * more when that would take the account below zero at some moment (no account ever goes negative). What the USD
 * account then holds above its target was withdrawn (a completed withdrawal, after its last moment below that
 * amount), so that it ends at the target. Last, each withdrawal's and top-up's `wallet_balance_usd` is the USD balance
 * right after it (before it, for one that moved nothing yet).
 */
export async function bookDemoLedger(db: Kysely<DB>, partnerId: string, targets: Record<string, string>): Promise<void> {
  const p = sql`${partnerId}::uuid`;
  await db.transaction().execute(async (trx) => {
    // statistics of the rows just loaded, before the booking joins them: planned on the counts of before (the demo's
    // thousand rows), the booking of 100,000 rows per table and its kept-balance trigger ran for more than 14 minutes
    await sql`analyze payments, collections, settlements, fees, initiated_payments`.execute(trx);
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
    // (the fee taken is the row's fee of a positive amount; a payment's fee given back is its row of a negative one, whose
    // moment is the payment's return)
    const rows = (table: 'payments' | 'collections') => sql`
      select r.id::text as ref, r.status, r.created_at,
        case when r.fiat_wallet is not null and r.fiat_wallet <> 'USD' then r.fiat_wallet else 'USD' end as currency,
        case when r.fiat_wallet is not null and r.fiat_wallet <> 'USD' then r.amount else r.converted_amount end as amount,
        case when r.fiat_wallet is null or r.fiat_wallet = 'USD' then coalesce(f.amount_usd, 0) else 0 end as fee,
        coalesce(fr.created_at, least(r.created_at + interval '10 minutes', now())) as returned_at
      from ${sql.table(table)} r
      left join fees f on f.partner_id = r.partner_id and f.transaction_id = r.id and f.amount_usd > 0
      left join fees fr on fr.partner_id = r.partner_id and fr.transaction_id = r.id and fr.amount_usd < 0
      where r.partner_id = ${p}`;
    // a commercial partner's payments are its initiated payments (a live order writes both rows, with one id; the demo
    // writes the initiated one only): one without a payments row is booked as a payment of its amount in USD, no fee
    const initiated = sql`
      select i.id::text as ref, i.status, i.created_at, 'USD' as currency, i.amount_usd as amount, 0::numeric as fee,
        least(i.created_at + interval '10 minutes', now()) as returned_at
      from initiated_payments i
      where i.partner_id = ${p} and not exists (select 1 from payments m where m.partner_id = i.partner_id and m.id = i.id)`;
    // after the row, within the hour, never in the future
    const later = (x: string) => sql.raw(`least(${x}.created_at + interval '10 minutes', now())`);
    // every movement in one statement: each table is read once
    await sql`
      with pay as materialized (${rows('payments')} union all ${initiated}),
      col as materialized (${rows('collections')}),
      st as materialized (select id::text as ref, status, type, created_at, fiat_amount_usd as amount from settlements where partner_id = ${p}),
      e (currency, amount, kind, ref, at) as (
        select currency, -amount, 'disbursement', ref, created_at from pay
        union all select currency, -fee, 'disbursement_fee', ref, created_at from pay
        union all select currency, amount, 'disbursement_reversal', ref, returned_at from pay where status in ('failed', 'expired', 'denied')
        union all select currency, fee, 'disbursement_fee_reversal', ref, returned_at from pay where status in ('failed', 'expired', 'denied')
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
    await withdrawExcess(trx, partnerId, targets.USD ?? '0');
    await setWalletBalances(trx, partnerId);
  });
}

/** The USD account's running balance after each entry, in time order. */
const usdRuns = (p: RawBuilder<unknown>) => sql`
  select reference, kind, created_at, id, sum(amount) over (order by created_at, id) as running
  from ledger_entries where partner_id = ${p} and currency = 'USD'`;

/**
 * What the USD account holds above `target` at the end was withdrawn: one completed withdrawal of that amount, booked
 * once the balance stays at or above it (so that the balance never goes below zero), to a Tron address.
 */
async function withdrawExcess(trx: Transaction<DB>, partnerId: string, target: string) {
  const p = sql`${partnerId}::uuid`;
  const r = await sql<{ excess: string; after: Date | null; last: Date | null; fiat: boolean }>`
    with runs as (${usdRuns(p)}), total as (select coalesce(sum(amount), 0) - ${target}::numeric as excess from ledger_entries where partner_id = ${p} and currency = 'USD')
    select total.excess::text as excess,
      -- the moment of the first entry after the last one that left the balance below the amount: from there on it
      -- never is (its last moment when that is also the end)
      (select coalesce((select min(created_at) from runs where created_at > low.at), low.at)
        from (select max(created_at) as at from runs where running < total.excess) low) as after,
      (select min(created_at) from runs) as last,
      (select fiat_wallets_enabled from partners where id = ${p}) as fiat
    from total`.execute(trx);
  const { excess, after, last, fiat } = r.rows[0]!;
  if (Number(excess) <= 0) return;
  const id = crypto.createHash('md5').update(`${partnerId}:excess`).digest('hex');
  const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}`;
  const tron = (what: string) => demoAddressOf('TRC20', crypto.createHash('sha256').update(`${partnerId}:${what}`).digest());
  // at that moment (its entry's id the highest, so that it comes after every entry of that moment), or a minute after
  // the opening balance when the balance never was below the amount
  const at = sql`coalesce(${after}::timestamptz, ${last}::timestamptz + interval '1 minute', now())`;
  await sql`
    insert into settlements (partner_id, id, created_at, status, type, transaction_hash, internal_wallet_address, external_wallet_address,
      crypto_currency, crypto_amount, network, crypto_rate, fiat_amount_usd, wallet_balance_usd, fiat_amount, fiat_rate, fiat_wallet, sequence_id)
    values (${p}, ${uuid}::uuid, ${at}, 'complete', 'payout', ${crypto.createHash('sha256').update(uuid).digest('hex')}, ${tron('internal')}, ${tron('external')},
      'USDT', round(${excess}::numeric / 0.9995, 8), 'TRC20', 0.9995, ${excess}::numeric, 0, ${excess}::numeric, 1, ${fiat ? 'USD' : null},
      'SET-' || upper(substr(${id}, 1, 8)))`.execute(trx);
  await sql`
    insert into ledger_entries (partner_id, id, currency, amount, kind, reference, created_at)
    select partner_id, 'ffffffff-ffff-4fff-bfff-ffffffffffff', 'USD', -fiat_amount_usd, 'settlement', id::text, created_at
    from settlements where partner_id = ${p} and id = ${uuid}::uuid`.execute(trx);
}

/**
 * Each withdrawal's and top-up's wallet balance: the USD balance right after its own entry, or, for one without an
 * entry (a top-up not yet complete), after the last entry before it.
 */
async function setWalletBalances(trx: Transaction<DB>, partnerId: string) {
  const p = sql`${partnerId}::uuid`;
  await sql`
    with runs as (${usdRuns(p)}),
    events as (
      select created_at, 0 as side, id::text as ord, running, null::uuid as settlement from runs
      union all
      select s.created_at, 1, s.id::text, null, s.id from settlements s
      where s.partner_id = ${p} and not exists (select 1 from ledger_entries e where e.partner_id = s.partner_id and e.reference = s.id::text
        and e.kind in ('settlement', 'topup'))
    ),
    grouped as (select settlement, running, count(running) over (order by created_at, side, ord) as grp from events),
    carried as (select settlement, max(running) over (partition by grp) as running from grouped)
    update settlements s set wallet_balance_usd = coalesce(b.running, 0)
    from (
      select r.reference::uuid as id, r.running from runs r where r.kind in ('settlement', 'topup')
      union all select settlement, running from carried where settlement is not null
    ) b
    where s.partner_id = ${p} and s.id = b.id`.execute(trx);
}
