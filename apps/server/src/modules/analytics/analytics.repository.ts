import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DEFAULT_FIAT_WALLET } from '@portal/contract/fiat-wallets';
import type { DB } from '../../db/schema.ts';

/**
 * The Overview's SQL: the partner's collections, payments and settlements of a period, grouped in the database. Each
 * scan of collections and payments is an index-only scan of their analytics index (migration 0041); every query starts
 * with the caller's partner.
 */

/** The rows of one period: the partner, [from, to), the wallet ('all' or a currency), and the statuses of each outcome. */
export type Scope = { partnerId: string; from: Date; to: Date; wallet: string; succeeded: readonly string[]; failed: readonly string[] };

/** A local wallet's rows are summed in its currency; all wallets and the USD one in the rows' USD amounts. */
const isLocal = (wallet: string) => wallet !== 'all' && wallet !== DEFAULT_FIAT_WALLET.currency;

/** As the search reads a wallet: a row without one belongs to the default USD wallet. */
const walletIs = (wallet: string) => (wallet === 'all' ? sql`true` : sql`coalesce(fiat_wallet, ${DEFAULT_FIAT_WALLET.currency}) = ${wallet}`);

const instant = (d: Date) => d.toISOString();

/** Collections and payments of the scope with a kind column, their amount in the wallet's currency as `amt`. */
function corridorRows(s: Scope, columns: RawBuilder<unknown>): RawBuilder<unknown> {
  const amt = isLocal(s.wallet) ? sql`amount` : sql`converted_amount`;
  const one = (table: 'collections' | 'payments') =>
    sql`select ${sql.lit(table)} as kind, ${amt} as amt, ${columns} from ${sql.table(table)}
      where partner_id = ${s.partnerId} and created_at >= ${instant(s.from)} and created_at < ${instant(s.to)} and ${walletIs(s.wallet)}`;
  return sql`(${one('collections')} union all ${one('payments')})`;
}

const outcome = (s: Scope) => sql`case when status in (${sql.join(s.succeeded)}) then 's' when status in (${sql.join(s.failed)}) then 'f' else 'o' end`;

export type StepRow = { kind: string; step: number; succeeded: number; failed: number; amount: string };

/**
 * Per kind and step of `bounds` (ascending instants; step k from 1 holds [bounds[k-1], bounds[k])): how many
 * succeeded and their amount, how many failed. The scope runs from the first bound to the last.
 */
export async function stepTotals(db: Kysely<DB>, s: Scope, bounds: Date[]): Promise<StepRow[]> {
  const settlementAmt = isLocal(s.wallet) ? sql`coalesce(fiat_amount, 0)` : sql`fiat_amount_usd`;
  const settlements = sql`select 'settlements' as kind, ${settlementAmt} as amt, created_at, status from settlements
    where partner_id = ${s.partnerId} and created_at >= ${instant(s.from)} and created_at < ${instant(s.to)} and ${walletIs(s.wallet)}`;
  const r = await sql<StepRow>`
    select kind, width_bucket(created_at, ${bounds.map(instant)}::timestamptz[])::int as step,
      (count(*) filter (where o = 's'))::int as succeeded,
      (count(*) filter (where o = 'f'))::int as failed,
      coalesce(sum(amt) filter (where o = 's'), 0)::text as amount
    from (select kind, amt, created_at, ${outcome(s)} as o from (${corridorRows(s, sql`created_at, status`)} union all ${settlements}) u) r
    group by 1, 2`.execute(db);
  return r.rows;
}

export type BreakdownRow = {
  country: string | null;
  payment_method: string | null;
  operator: string | null;
  failure_reason: string | null;
  status: string | null;
  by: 'country' | 'channel' | 'operator' | 'reason';
  o: 's' | 'f' | 'o';
  n: number;
  amount: string;
};

/** Collections and payments of the scope by outcome, grouped by country, by channel, by operator, and the failed by reason and status. */
export async function breakdowns(db: Kysely<DB>, s: Scope): Promise<BreakdownRow[]> {
  const r = await sql<BreakdownRow>`
    select country, payment_method, operator, failure_reason, status, o,
      case when grouping(country) = 0 then 'country' when grouping(payment_method) = 0 then 'channel'
        when grouping(operator) = 0 then 'operator' else 'reason' end as by,
      count(*)::int as n, coalesce(sum(amt) filter (where o = 's'), 0)::text as amount
    from (select ${outcome(s)} as o, * from ${corridorRows(s, sql`country, payment_method, operator, failure_reason, status`)} u) r
    group by grouping sets ((country, o), (payment_method, o), (operator, o), (failure_reason, status, o))`.execute(db);
  // the reason set is read for the failed only
  return r.rows.filter((row) => row.by !== 'reason' || row.o === 'f');
}

export type CompletionRow = { kind: 'collections' | 'payments'; country: string; payment_method: string; n: number; p50: number; p95: number };

/** Of the scope's completed collections and payments: how many, and the median and 95th percentile of creation to completion (seconds), per kind and corridor. */
export async function completionTimes(db: Kysely<DB>, s: Scope): Promise<CompletionRow[]> {
  const r = await sql<CompletionRow>`
    select kind, country, payment_method, count(*)::int as n,
      percentile_cont(0.5) within group (order by seconds)::float8 as p50,
      percentile_cont(0.95) within group (order by seconds)::float8 as p95
    from (select kind, country, payment_method, extract(epoch from completed_at - created_at) as seconds
      from ${corridorRows(s, sql`country, payment_method, created_at, completed_at`)} u where completed_at is not null) r
    group by 1, 2, 3
    order by 4 desc, 1, 2, 3`.execute(db);
  return r.rows.map((row) => ({ ...row, p50: Number(row.p50), p95: Number(row.p95) }));
}
