import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DEFAULT_FIAT_WALLET } from '@portal/contract/fiat-wallets';
import type { DB } from '../../db/schema.ts';

/**
 * The Overview's SQL. Whole UTC hours and days are read from the rollups the database keeps with every change
 * (migration 0043: analytics_hours, analytics_days, analytics_durations); the pieces of a period that do not fill a
 * whole hour or day are read from the rows, grouped the same way, so that the two add up. Every query starts with the
 * caller's partner.
 */

/** Whose rows, of which wallet ('all' or a currency), and the statuses of each outcome. */
export type Scope = { partnerId: string; wallet: string; succeeded: readonly string[]; failed: readonly string[] };
/** Half-open intervals [from, to) of time. */
export type Ranges = readonly (readonly [Date, Date])[];

/** A local wallet's figures are in its currency; all wallets' and the USD one's in USD. */
const isLocal = (wallet: string) => wallet !== 'all' && wallet !== DEFAULT_FIAT_WALLET.currency;
/** As the search reads a wallet: a row without one belongs to the default USD wallet. */
const rowWallet = (wallet: string) => (wallet === 'all' ? sql`true` : sql`coalesce(fiat_wallet, ${DEFAULT_FIAT_WALLET.currency}) = ${wallet}`);
const cellWallet = (wallet: string) => (wallet === 'all' ? sql`true` : sql`wallet = ${wallet}`);
const cellAmount = (wallet: string) => (isLocal(wallet) ? sql`amount` : sql`amount_usd`);
const instants = (ds: readonly Date[]) => sql`${ds.map((d) => d.toISOString())}::timestamptz[]`;
const outcomeOf = (s: Scope) => sql`case when status in (${sql.join(s.succeeded)}) then 's' when status in (${sql.join(s.failed)}) then 'f' else 'o' end`;

/**
 * The rows of `table` in `ranges` with the columns named, their amount in the wallet's currency as `amt` and their
 * outcome as `o`: one range scan per range (an OR of ranges would read the table's pages, not the covering index).
 */
function rowsOf(s: Scope, ranges: Ranges, table: 'collections' | 'payments' | 'settlements', columns: RawBuilder<unknown>) {
  const amt =
    table === 'settlements'
      ? isLocal(s.wallet)
        ? sql`coalesce(fiat_amount, 0)`
        : sql`fiat_amount_usd`
      : isLocal(s.wallet)
        ? sql`amount`
        : sql`converted_amount`;
  return sql.join(
    ranges.map(
      ([a, b]) => sql`select ${sql.lit(table)} as kind, ${amt} as amt, ${outcomeOf(s)} as o, ${columns} from ${sql.table(table)}
        where partner_id = ${s.partnerId} and created_at >= ${a.toISOString()} and created_at < ${b.toISOString()} and ${rowWallet(s.wallet)}`,
    ),
    sql` union all `,
  );
}
const corridorRows = (s: Scope, ranges: Ranges, columns: RawBuilder<unknown>) =>
  sql`(${rowsOf(s, ranges, 'collections', columns)} union all ${rowsOf(s, ranges, 'payments', columns)})`;

/** Per kind, step of `bounds` (step k from 1 holds [bounds[k-1], bounds[k])) and outcome: how many, and their amount. */
export type StepRow = { kind: string; step: number; o: string; n: number; amount: string };

/** The steps' figures of the whole hours from..to (UTC hours, both whole), but those of `skipped`. */
export async function hourSteps(db: Kysely<DB>, s: Scope, from: Date, to: Date, skipped: readonly Date[], bounds: readonly Date[]): Promise<StepRow[]> {
  const r = await sql<StepRow>`
    select kind, width_bucket(hour, ${instants(bounds)})::int as step, outcome as o, sum(n)::int as n, sum(${cellAmount(s.wallet)})::text as amount
    from analytics_hours
    where partner_id = ${s.partnerId} and hour >= ${from.toISOString()} and hour < ${to.toISOString()} and ${cellWallet(s.wallet)}
      and not (hour = any(${instants(skipped)}))
    group by 1, 2, 3`.execute(db);
  return r.rows;
}

/** The same figures from the rows in `ranges`. */
export async function rowSteps(db: Kysely<DB>, s: Scope, ranges: Ranges, bounds: readonly Date[]): Promise<StepRow[]> {
  if (!ranges.length) return [];
  const columns = sql`created_at, status`;
  const r = await sql<StepRow>`
    select kind, width_bucket(created_at, ${instants(bounds)})::int as step, o, count(*)::int as n, sum(amt)::text as amount
    from (${corridorRows(s, ranges, columns)} union all ${rowsOf(s, ranges, 'settlements', columns)}) r
    group by 1, 2, 3`.execute(db);
  return r.rows;
}

/** Collections and payments by dimension (country, channel, operator; reason for the failed) and outcome. */
export type PartRow = { dim: 'country' | 'channel' | 'operator' | 'reason'; key: string; o: string; n: number; amount: string };

/** The parts of the whole UTC days from..to (dates, `to` excluded). */
export async function dayParts(db: Kysely<DB>, s: Scope, from: string, to: string): Promise<PartRow[]> {
  const r = await sql<PartRow>`
    select dim, key, outcome as o, sum(n)::int as n, sum(${cellAmount(s.wallet)})::text as amount
    from analytics_days
    where partner_id = ${s.partnerId} and day >= ${from}::date and day < ${to}::date and ${cellWallet(s.wallet)}
    group by 1, 2, 3`.execute(db);
  return r.rows;
}

/** The same parts from the rows in `ranges`. */
export async function rowParts(db: Kysely<DB>, s: Scope, ranges: Ranges): Promise<PartRow[]> {
  if (!ranges.length) return [];
  const r = await sql<PartRow>`
    select dim, key, o, count(*)::int as n, sum(amt)::text as amount
    from ${corridorRows(s, ranges, sql`country, payment_method, operator, failure_reason, status`)} r
    cross join lateral (values ('country', country), ('channel', payment_method), ('operator', coalesce(operator, '')),
      ('reason', case when o = 'f' then coalesce(failure_reason, 'status:' || status) end)) d(dim, key)
    where key is not null
    group by 1, 2, 3`.execute(db);
  return r.rows;
}

/** Completed collections and payments per kind and corridor, in buckets of creation to completion (2^(b/4) to 2^((b+1)/4) seconds). */
export type DurationRow = { kind: 'collections' | 'payments'; country: string; channel: string; bucket: number; n: number };

export async function dayDurations(db: Kysely<DB>, s: Scope, from: string, to: string): Promise<DurationRow[]> {
  const r = await sql<DurationRow>`
    select kind, country, channel, bucket::int as bucket, sum(n)::int as n
    from analytics_durations
    where partner_id = ${s.partnerId} and day >= ${from}::date and day < ${to}::date and ${cellWallet(s.wallet)}
    group by 1, 2, 3, 4`.execute(db);
  return r.rows;
}

export async function rowDurations(db: Kysely<DB>, s: Scope, ranges: Ranges): Promise<DurationRow[]> {
  if (!ranges.length) return [];
  const r = await sql<DurationRow>`
    select kind, country, payment_method as channel,
      floor(4 * log(2, greatest(extract(epoch from completed_at - created_at), 1)))::int as bucket, count(*)::int as n
    from ${corridorRows(s, ranges, sql`country, payment_method, created_at, completed_at`)} r
    where completed_at is not null
    group by 1, 2, 3, 4`.execute(db);
  return r.rows;
}
