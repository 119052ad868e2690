import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * The Overview's figures kept as the rows change, so that a period costs the same at any size of the tables: counts and
 * sums of collections, payments and settlements, kept by statement-level triggers in the transaction of each change
 * (a bulk insert of a million rows is one update per cell). Three tables:
 * - `analytics_hours`: per partner, table, UTC hour, wallet and outcome (s succeeded, f failed, o open): how many, and
 *   their amount in the row's currency and in USD. The Overview's steps and volumes.
 * - `analytics_days`: collections and payments per UTC day, wallet, outcome and one dimension (`country`, `channel`,
 *   `operator`, or `reason` for the failed: the failure reason, or `status:<status>` without one): the breakdowns.
 * - `analytics_durations`: completed collections and payments per UTC day, wallet and corridor (country and channel),
 *   in buckets of creation to completion a quarter of a power of two wide (bucket b: 2^(b/4) to 2^((b+1)/4) seconds):
 *   the completion percentiles, to within 9 %.
 * A period that does not start or end on a whole UTC day reads its edges from the rows themselves (at most two partial
 * days), through a covering index per table: an index-only range scan.
 *
 * The outcome of each status is that of the status groups (contract status-groups.ts, OUTCOME_STATUSES of
 * analytics.ts), written here as they were when this migration was made. Each change takes the row lock of the cells
 * it moves until commit, in key order: two changes of the same partner's hour wait for each other, never deadlock.
 */
const SUCCEEDED = `('complete', 'settlement_complete')`;
const FAILED = `('failed', 'denied', 'refund_failed', 'settlement_failed', 'pending_refund', 'refund_processing', 'refunded', 'cancelled', 'expired')`;
const outcome = `case when status in ${SUCCEEDED} then 's' when status in ${FAILED} then 'f' else 'o' end`;
const wallet = `coalesce(fiat_wallet, 'USD')`;
const hour = `date_trunc('hour', created_at, 'UTC')`;
const day = `(created_at at time zone 'UTC')::date`;

/** The changed rows with a sign: those added count +1, those removed -1 (an update is both). */
const SOURCES = {
  added: 'select *, 1 as sign from changed',
  removed: 'select *, -1 as sign from changed',
  updated: 'select *, 1 as sign from new_rows union all select *, -1 as sign from old_rows',
} as const;

/** Adds the summed deltas to their cells (created at zero), in key order; deltas that cancel out are not written. */
function upsert(table: string, keys: string[], select: string, source: string, sums: Record<string, string>) {
  const names = Object.keys(sums);
  return `
    insert into ${table} (${[...keys, ...names].join(', ')})
    select ${keys.join(', ')}, ${names.map((n) => `sum(${sums[n]})`).join(', ')}
    from (select ${select} from (${source}) r) d
    group by ${keys.join(', ')}
    having ${names.map((n) => `sum(${sums[n]}) <> 0`).join(' or ')}
    order by ${keys.join(', ')}
    on conflict (${keys.join(', ')}) do update set ${names.map((n) => `${n} = ${table}.${n} + excluded.${n}`).join(', ')};`;
}

const HOURS_KEY = ['partner_id', 'kind', 'hour', 'wallet', 'outcome'];
const HOURS_SUMS = { n: 'sign', amount: 'amount * sign', amount_usd: 'amount_usd * sign' };
const DAYS_KEY = ['partner_id', 'day', 'kind', 'wallet', 'dim', 'key', 'outcome'];
const DURATIONS_KEY = ['partner_id', 'day', 'kind', 'wallet', 'country', 'channel', 'bucket'];

/** What a change of collections or payments moves, from `source` (their columns and a sign). */
function corridorStatements(source: string): string {
  const base = `partner_id, TG_TABLE_NAME_ as kind, ${wallet} as wallet, ${outcome} as outcome, sign`;
  const dims = `
    select ${base}, ${day} as day, 'country' as dim, country as key, amount, converted_amount as amount_usd, status from (${source}) a
    union all select ${base}, ${day}, 'channel', payment_method, amount, converted_amount, status from (${source}) a
    union all select ${base}, ${day}, 'operator', coalesce(operator, ''), amount, converted_amount, status from (${source}) a
    union all select ${base}, ${day}, 'reason', coalesce(failure_reason, 'status:' || status), amount, converted_amount, status from (${source}) a
      where ${outcome} = 'f'`;
  return [
    upsert('analytics_hours', HOURS_KEY, `*`, `select ${base}, ${hour} as hour, amount, converted_amount as amount_usd from (${source}) a`, HOURS_SUMS),
    upsert('analytics_days', DAYS_KEY, `*`, dims, HOURS_SUMS),
    upsert(
      'analytics_durations',
      DURATIONS_KEY,
      `*`,
      `select partner_id, TG_TABLE_NAME_ as kind, ${wallet} as wallet, ${day} as day, country, payment_method as channel, sign,
        floor(4 * log(2, greatest(extract(epoch from completed_at - created_at), 1)))::smallint as bucket
       from (${source}) a where completed_at is not null`,
      { n: 'sign' },
    ),
  ].join('\n');
}

/** What a change of settlements moves: their hours (in USD, and in the local currency when the row has one). */
function settlementStatements(source: string): string {
  return upsert(
    'analytics_hours',
    HOURS_KEY,
    `*`,
    `select partner_id, TG_TABLE_NAME_ as kind, ${wallet} as wallet, ${outcome} as outcome, sign, ${hour} as hour,
      coalesce(fiat_amount, 0) as amount, fiat_amount_usd as amount_usd from (${source}) a`,
    HOURS_SUMS,
  );
}

/** A trigger function per table kind and change, its statements with the table's name in place of TG_TABLE_NAME_. */
function triggerFunction(name: string, statements: string): RawBuilder<unknown> {
  return sql.raw(`
    create function ${name}() returns trigger language plpgsql as $fn$
    begin
      ${statements.replaceAll('TG_TABLE_NAME_', 'tg_table_name::text')}
      return null;
    end $fn$`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_hours (
      partner_id uuid not null, kind text not null, hour timestamptz not null, wallet text not null, outcome text not null,
      n bigint not null, amount numeric(38, 8) not null, amount_usd numeric(38, 8) not null,
      primary key (partner_id, kind, hour, wallet, outcome)
    );
    create table analytics_days (
      partner_id uuid not null, day date not null, kind text not null, wallet text not null, dim text not null, key text not null,
      outcome text not null, n bigint not null, amount numeric(38, 8) not null, amount_usd numeric(38, 8) not null,
      primary key (partner_id, day, kind, wallet, dim, key, outcome)
    );
    create table analytics_durations (
      partner_id uuid not null, day date not null, kind text not null, wallet text not null, country text not null,
      channel text not null, bucket smallint not null, n bigint not null,
      primary key (partner_id, day, kind, wallet, country, channel, bucket)
    )`.execute(db);

  for (const table of ['collections', 'payments']) {
    await sql
      .raw(
        `create index ${table}_period_idx on ${table} (partner_id, created_at)
          include (status, fiat_wallet, country, payment_method, operator, amount, converted_amount, completed_at, failure_reason)`,
      )
      .execute(db);
  }
  for (const [change, source] of Object.entries(SOURCES)) {
    await triggerFunction(`analytics_corridor_${change}`, corridorStatements(source)).execute(db);
    await triggerFunction(`analytics_settlement_${change}`, settlementStatements(source)).execute(db);
  }
  for (const table of ['collections', 'payments', 'settlements']) {
    const fn = table === 'settlements' ? 'analytics_settlement' : 'analytics_corridor';
    await sql
      .raw(
        `
      create trigger ${table}_analytics_added after insert on ${table} referencing new table as changed
        for each statement execute function ${fn}_added();
      create trigger ${table}_analytics_removed after delete on ${table} referencing old table as changed
        for each statement execute function ${fn}_removed();
      create trigger ${table}_analytics_updated after update on ${table} referencing old table as old_rows new table as new_rows
        for each statement execute function ${fn}_updated();
      `,
      )
      .execute(db);
    // what is there today, once
    const statements = (table === 'settlements' ? settlementStatements : corridorStatements)(`select *, 1 as sign from ${table}`);
    await sql.raw(statements.replaceAll('TG_TABLE_NAME_', `'${table}'::text`)).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['collections', 'payments', 'settlements']) {
    await sql
      .raw(
        `drop trigger ${table}_analytics_added on ${table}; drop trigger ${table}_analytics_removed on ${table}; drop trigger ${table}_analytics_updated on ${table};`,
      )
      .execute(db);
  }
  for (const change of Object.keys(SOURCES)) await sql.raw(`drop function analytics_corridor_${change}, analytics_settlement_${change}`).execute(db);
  await sql`drop index collections_period_idx, payments_period_idx`.execute(db);
  await sql`drop table analytics_durations, analytics_days, analytics_hours`.execute(db);
}
