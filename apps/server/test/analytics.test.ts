import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_RANGE_MESSAGE, OUTCOME_STATUSES, type AnalyticsReply } from '@portal/contract/analytics';
import { addDecimal, normalise } from '@portal/contract/decimal';
import { REVERSED_RANGE_MESSAGE } from '@portal/contract/transactions';
import { dayInZone } from '@portal/contract/time-zone';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { addDays } from '@portal/contract/analytics';
import { rollupDifferences } from './analytics-support.ts';
import { DATABASES, setupSignedIn, signedInCalls, type Session, type TestContext } from './harness.ts';

type Row = Record<string, string | null>;
type Query = { from: string; to: string; wallet?: string; timeZone?: string };

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const SUCCEEDED = OUTCOME_STATUSES.succeeded.join(',');
const FAILED = OUTCOME_STATUSES.failed.join(',');

/**
 * The Overview's figures (GET partner/analytics) against the tables they summarise, on the demo data: every count is
 * the total of the table with the same filters (status group, dates, wallet, country, payment method), every amount the
 * sum of that table's rows as an export holds them. Then partner isolation, roles, and the refused periods.
 */
describe.each(DATABASES)('the Overview on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test'], { transactions: true }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const analytics = async (email: string, q: Query) => {
    const res = await signedInCalls(s[email]!).get(`/api/v1/partner/analytics?${new URLSearchParams(q as Record<string, string>).toString()}`);
    return { status: res.statusCode, body: res.json<AnalyticsReply & { code?: string; message?: string }>() };
  };

  /** Every row of a table with these filters, as an export reads them (the scroll, 2,500 at a time). */
  const tableRows = async (email: string, table: string, filters: Record<string, string>, q: Query, range = { startDate: q.from, endDate: q.to }) => {
    const rows: Row[] = [];
    let scrollId: string | null = null;
    do {
      const body: Record<string, unknown> = scrollId
        ? { table, scrollId, scrollSize: 2500 }
        : { table, filters, range, fiatWallet: q.wallet ?? 'all', timeZone: q.timeZone ?? 'UTC', scrollSize: 2500 };
      const res = await signedInCalls(s[email]!).post('/api/v1/transactions/scroll', body);
      expect(res.statusCode).toBe(200);
      const reply = res.json<{ hits: Row[]; scrollId: string | null }>();
      rows.push(...reply.hits);
      scrollId = reply.scrollId;
    } while (scrollId);
    return rows;
  };
  const localWallet = (q: Query) => q.wallet !== undefined && q.wallet !== 'all' && q.wallet !== 'USD';
  /** A table's count and amount in the wallet's currency (USD but for a local wallet), two decimals. */
  const volumeOf = (table: string, rows: Row[], q: Query) => {
    const column = table === 'settlements' ? (localWallet(q) ? 'fiatAmount' : 'fiatAmountUsd') : localWallet(q) ? 'amount' : 'convertedAmount';
    return {
      count: rows.length,
      amount: normalise(
        rows.reduce((sum, r) => addDecimal(sum, r[column] ?? '0'), '0'),
        2,
      ),
    };
  };
  const today = dayInZone(Date.now(), 'UTC');

  it.each<[string, Query]>([
    ['the last 30 days, all wallets', { from: addDays(today, -29), to: today }],
    [
      'a whole month in Lagos, the NGN wallet',
      { from: `${addDays(today, -40).slice(0, 7)}-01`, to: addDays(`${addDays(today, -40).slice(0, 7)}-01`, 27), wallet: 'NGN', timeZone: 'Africa/Lagos' },
    ],
    ['a year in Nairobi, the USD wallet', { from: addDays(today, -365), to: today, wallet: 'USD', timeZone: 'Africa/Nairobi' }],
    // a zone 5 h 45 min from UTC: its hours are not UTC's
    [
      'yesterday by the hour in Kathmandu',
      { from: addDays(dayInZone(Date.now(), 'Asia/Kathmandu'), -1), to: addDays(dayInZone(Date.now(), 'Asia/Kathmandu'), -1), timeZone: 'Asia/Kathmandu' },
    ],
  ])('%s: each volume, its previous period and each step are the tables with the same filters', async (_, q) => {
    const { status, body } = await analytics('viewer@acme.test', q);
    expect(status).toBe(200);
    expect(body.currency).toBe(localWallet(q) ? q.wallet : 'USD');
    let seen = 0;
    for (const table of ['collections', 'payments', 'settlements'] as const) {
      const current = volumeOf(table, await tableRows('viewer@acme.test', table, { status: SUCCEEDED }, q), q);
      expect(body.totals[table].current).toEqual(current);
      seen += current.count;
      const before = { from: body.period.previousFrom, to: body.period.previousTo };
      expect(body.totals[table].previous).toEqual(volumeOf(table, await tableRows('viewer@acme.test', table, { status: SUCCEEDED }, { ...q, ...before }), q));
      // the steps add up to the period; a step of days is the table of its days
      const summed = body.series.reduce(
        (v, p) => ({ count: v.count + p.volumes[table].count, amount: normalise(addDecimal(v.amount, p.volumes[table].amount), 2) }),
        {
          count: 0,
          amount: '0.00',
        },
      );
      expect(summed).toEqual(current);
    }
    expect(seen).toBeGreaterThan(0);
    if (body.bucket === 'hour') expect(body.series).toHaveLength(24);
    if (body.bucket === 'day') {
      for (const p of body.series.slice(-5)) {
        const rows = await tableRows('viewer@acme.test', 'collections', { status: SUCCEEDED }, q, { startDate: p.day, endDate: p.day });
        expect(p.volumes.collections).toEqual(volumeOf('collections', rows, q));
      }
    }
  });

  it('the success rate, by country and by channel, is the combined table of payments and collections with the same filters', async () => {
    const q = { from: addDays(today, -365), to: today };
    const { body } = await analytics('treasury@acme.test', q);
    const succeeded = await tableRows('treasury@acme.test', 'all', { status: SUCCEEDED }, q);
    const failed = await tableRows('treasury@acme.test', 'all', { status: FAILED }, q);
    expect(body.success.succeeded).toBe(succeeded.length);
    expect(body.success.finished).toBe(succeeded.length + failed.length);
    expect(body.success.byCountry.length).toBeGreaterThan(1);
    for (const c of body.success.byCountry.slice(0, 3)) {
      expect(c.succeeded).toBe((await tableRows('treasury@acme.test', 'all', { status: SUCCEEDED, country: c.key }, q)).length);
      const ended = (await tableRows('treasury@acme.test', 'all', { status: FAILED, country: c.key }, q)).length;
      expect(c.finished).toBe(c.succeeded + ended);
      expect(c.count).toBe((await tableRows('treasury@acme.test', 'all', { country: c.key }, q)).length);
    }
    for (const c of body.success.byChannel) {
      const rows = await tableRows('treasury@acme.test', 'all', { status: SUCCEEDED, paymentMethod: c.key }, q);
      expect({ succeeded: c.succeeded, amount: c.amount }).toEqual({ succeeded: rows.length, amount: volumeOf('all', rows, q).amount });
    }
    // every failure has its reason or its status, once
    expect(body.success.failureReasons.reduce((n, r) => n + r.count, 0)).toBe(failed.length);
    expect(body.success.byOperator.reduce((n, r) => n + r.count, 0)).toBe(body.success.byCountry.reduce((n, r) => n + r.count, 0));
  });

  it("the rollups the database keeps are what the demo's rows add up to", async () => {
    expect(await rollupDifferences(t.database)).toEqual({ analytics_hours: 0, analytics_days: 0, analytics_durations: 0 });
  });

  it('the completion times are the percentiles of the completed rows, per type and corridor, to within their buckets', async () => {
    const q = { from: addDays(today, -365), to: today };
    const { body } = await analytics('admin@acme.test', q);
    expect(body.completion.length).toBeGreaterThan(0);
    const { rows } = await t.database.executeSql(
      `select extract(epoch from completed_at - created_at)::float8 as s from collections
       where partner_id = $1 and country = $2 and payment_method = $3 and completed_at is not null and created_at >= $4 and created_at < $5 order by 1`,
      [
        ACME,
        body.completion.find((c) => c.kind === 'collections')!.country,
        body.completion.find((c) => c.kind === 'collections')!.channel,
        `${q.from}T00:00:00Z`,
        `${addDays(q.to, 1)}T00:00:00Z`,
      ],
    );
    const seconds = (rows as { s: number }[]).map((r) => Number(r.s));
    const c = body.completion.find((x) => x.kind === 'collections')!;
    // percentile_cont: the linear interpolation between the two nearest ranks
    const at = (p: number) => {
      const rank = p * (seconds.length - 1);
      const lo = Math.floor(rank);
      return seconds[lo]! + (seconds[Math.min(lo + 1, seconds.length - 1)]! - seconds[lo]!) * (rank - lo);
    };
    expect(c.count).toBe(seconds.length);
    // from the kept histogram, whose buckets are a fourth of a power of two wide: the middle of the right bucket
    for (const [figure, exact] of [
      [c.p50Seconds, at(0.5)],
      [c.p95Seconds, at(0.95)],
    ] as const) {
      expect(figure / exact).toBeGreaterThan(1 / 1.2);
      expect(figure / exact).toBeLessThan(1.2);
    }
    expect(c.p95Seconds).toBeGreaterThanOrEqual(c.p50Seconds);
  });

  it("the balance over time is the ledger's: today's end is the balance, each day's end the statement's closing balance", async () => {
    const q = { from: addDays(today, -6), to: today };
    const { body } = await analytics('admin@acme.test', q);
    const balance = (await signedInCalls(s['admin@acme.test']!).get('/api/v1/partner/balance')).json<{ available: string; pending: { withdrawals: string } }>();
    expect(body.balance.points).toHaveLength(7);
    expect(body.balance.points.at(-1)!.balance).toBe(normalise(balance.available, 2));
    expect(body.balance.current).toBe(normalise(balance.available, 2));
    expect(body.balance.pending.withdrawals).toBe(normalise(balance.pending.withdrawals, 2));
    for (const [i, p] of body.balance.points.slice(0, -1).entries()) {
      const day = addDays(q.from, i);
      const csv = (await signedInCalls(s['admin@acme.test']!).get(`/api/v1/partner/balance/statement.csv?from=${day}&to=${day}`)).body;
      const closing = /Closing balance[^\n]*?(-?[\d,]+\.\d{2})/.exec(csv)?.[1]?.replace(/,/g, '');
      expect(closing, csv.slice(-300)).toBeDefined();
      expect(p.balance).toBe(closing);
    }
  });

  it('each partner sees only its own figures; a partner in the query is refused', async () => {
    const q = { from: addDays(today, -365), to: today };
    const acme = (await analytics('admin@acme.test', q)).body;
    const kora = (await analytics('admin@kora.test', q)).body;
    expect(kora.totals.collections.current).toEqual(volumeOf('collections', await tableRows('admin@kora.test', 'collections', { status: SUCCEEDED }, q), q));
    expect(kora.totals.collections.current.count).not.toBe(acme.totals.collections.current.count);
    const { rows } = await t.database.executeSql(
      `select count(*)::int as n from collections where partner_id = $1 and status = 'complete' and created_at >= $2`,
      [KORA, `${q.from}T00:00:00Z`],
    );
    expect(kora.totals.collections.current.count).toBe(Number((rows[0] as { n: number }).n));
    const res = await signedInCalls(s['admin@kora.test']!).get(`/api/v1/partner/analytics?from=${q.from}&to=${q.to}&partnerId=${ACME}`);
    expect(res.statusCode).toBe(400);
  });

  it('every role of the partner reads the same figures; without a session nothing', async () => {
    const q = { from: addDays(today, -29), to: today };
    const figures = await Promise.all(['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test'].map((e) => analytics(e, q)));
    for (const f of figures) expect(f.status).toBe(200);
    expect(figures[1]!.body.totals).toEqual(figures[0]!.body.totals);
    expect(figures[2]!.body.success).toEqual(figures[0]!.body.success);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/partner/analytics?from=${q.from}&to=${q.to}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("the first screen after sign-in is each user's own choice: the transactions until they choose the Overview, audited", async () => {
    const calls = signedInCalls(s['treasury@acme.test']!);
    expect((await calls.get('/api/v1/user/preferences')).json<{ startScreen: string }>().startScreen).toBe('transactions');
    const set = await calls.put('/api/v1/user/preferences', { startScreen: 'overview' });
    expect(set.statusCode).toBe(200);
    expect((await calls.get('/api/v1/user/preferences')).json<{ startScreen: string }>().startScreen).toBe('overview');
    // another user's choice is theirs
    expect((await signedInCalls(s['viewer@acme.test']!).get('/api/v1/user/preferences')).json<{ startScreen: string }>().startScreen).toBe('transactions');
    expect((await calls.put('/api/v1/user/preferences', { startScreen: 'balance' })).statusCode).toBe(400);
    const { rows } = await t.database.executeSql(`select details from audit_events where action = 'user.start_screen_changed' and partner_id = $1`, [ACME]);
    expect(rows).toEqual([{ details: { from: 'transactions', to: 'overview' } }]);
  });

  it.each([
    ['a period that ends before it starts', { from: today, to: addDays(today, -1) }, REVERSED_RANGE_MESSAGE],
    ['a period of more than 366 days', { from: addDays(today, -366), to: today }, ANALYTICS_RANGE_MESSAGE],
    ['an unknown time zone', { from: today, to: today, timeZone: 'Mars/Olympus' }, 'Choose a time zone such as Africa/Nairobi or UTC.'],
    ['a day that does not exist', { from: '2026-02-30', to: today }, undefined],
  ])('refuses %s with 400 and says why', async (_, q, message) => {
    const { status, body } = await analytics('viewer@acme.test', q);
    expect(status).toBe(400);
    expect(body.code).toBe('ValidationFailed');
    if (message) expect(body.message).toContain(message);
  });
});
