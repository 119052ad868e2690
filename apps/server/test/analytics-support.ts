import { OUTCOME_STATUSES } from '@portal/contract/analytics';
import type { Database } from '../src/db/database.ts';

const list = (xs: readonly string[]) => `(${xs.map((x) => `'${x}'`).join(', ')})`;
const outcome = `case when status in ${list(OUTCOME_STATUSES.succeeded)} then 's' when status in ${list(OUTCOME_STATUSES.failed)} then 'f' else 'o' end`;
const corridors = `(select 'collections' as kind, * from collections union all select 'payments', * from payments)`;

/** Each rollup as the rows make it, counted afresh (written apart from the migration's triggers, from the contract's outcomes). */
const RECOUNTS = {
  analytics_hours: {
    kept: `select partner_id, kind, hour, wallet, outcome, n, amount, amount_usd from analytics_hours where n <> 0 or amount <> 0 or amount_usd <> 0`,
    recount: `
      select partner_id, kind, date_trunc('hour', created_at, 'UTC'), coalesce(fiat_wallet, 'USD'), ${outcome}, count(*), sum(amount), sum(converted_amount)
      from ${corridors} r group by 1, 2, 3, 4, 5
      union all
      select partner_id, 'settlements', date_trunc('hour', created_at, 'UTC'), coalesce(fiat_wallet, 'USD'), ${outcome}, count(*), sum(coalesce(fiat_amount, 0)), sum(fiat_amount_usd)
      from settlements group by 1, 2, 3, 4, 5`,
  },
  analytics_days: {
    kept: `select partner_id, day, kind, wallet, dim, key, outcome, n, amount, amount_usd from analytics_days where n <> 0 or amount <> 0 or amount_usd <> 0`,
    recount: `
      select partner_id, (created_at at time zone 'UTC')::date, kind, coalesce(fiat_wallet, 'USD'), dim, key, ${outcome}, count(*), sum(amount), sum(converted_amount)
      from ${corridors} r
      cross join lateral (values ('country', country), ('channel', payment_method), ('operator', coalesce(operator, '')),
        ('reason', case when ${outcome} = 'f' then coalesce(failure_reason, 'status:' || status) end)) d(dim, key)
      where key is not null
      group by 1, 2, 3, 4, 5, 6, 7`,
  },
  analytics_durations: {
    kept: `select partner_id, day, kind, wallet, country, channel, bucket, n from analytics_durations where n <> 0`,
    recount: `
      select partner_id, (created_at at time zone 'UTC')::date, kind, coalesce(fiat_wallet, 'USD'), country, payment_method,
        floor(4 * log(2, greatest(extract(epoch from completed_at - created_at), 1)))::smallint, count(*)
      from ${corridors} r where completed_at is not null group by 1, 2, 3, 4, 5, 6, 7`,
  },
};

/** How many cells of each rollup differ from a recount of the rows (kept but not counted, or counted but not kept): 0 when they agree. */
export async function rollupDifferences(database: Database): Promise<Record<keyof typeof RECOUNTS, number>> {
  const out = {} as Record<keyof typeof RECOUNTS, number>;
  for (const [table, { kept, recount }] of Object.entries(RECOUNTS)) {
    const [a, b] = [`select * from (${kept}) k`, `select * from (${recount}) r`];
    const { rows } = await database.executeSql(`select count(*)::int as n from ((${a} except ${b}) union all (${b} except ${a})) d`);
    out[table as keyof typeof RECOUNTS] = Number((rows[0] as { n: number }).n);
  }
  return out;
}
