import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions, TRANSACTION_TABLES } from '../src/db/seed/transactions.ts';
import { DATABASES, setup, signIn, startTestReportWorker, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
type Row = Record<string, string | null>;
type Reply = { data: Row[]; total: number; hits: Row[]; scrollId: string | null; code?: string };

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

/**
 * The combined table (transaction-data §3, "Combined tab"): a partner's payments and collections as one table, newest
 * first, each row with its transaction type (payout, topup), filtered by country, status, payment method, transaction
 * type and request source; paged, exported and reported like the others, and another partner's rows never in it.
 */
describe.each(DATABASES)('the combined table of payments and collections on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, jobs: true });
    const db = t.database.db;
    await generateTransactions(db, { partnerId: ACME, rows: 300, seed: 'acme-combined', fiatWallets: ['USD', 'NGN', 'KES'], tables: TRANSACTION_TABLES });
    await generateTransactions(db, { partnerId: KORA, rows: 120, seed: 'kora-combined', fiatWallets: null, tables: TRANSACTION_TABLES });
    await startTestReportWorker(t);
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (email: string, path: string, body: Record<string, unknown>) => {
    const res = await s[email]!.browser.post(`/api/v1/transactions/${path}`, body, { token: s[email]!.accessToken });
    return { status: res.statusCode, body: res.json<Reply>() };
  };
  /** Ids and transaction types of the partner's payments and collections where `where` holds, newest first. */
  const union = async (partnerId: string, where = 'true', params: unknown[] = []) => {
    const { rows } = await t.database.executeSql(
      `select id::text as id, kind from (
         select id, created_at, 'payout' as kind, country, status, payment_method, request_source, fiat_wallet from payments where partner_id = $1
         union all
         select id, created_at, 'topup', country, status, payment_method, request_source, fiat_wallet from collections where partner_id = $1) u
       where ${where} order by created_at desc, id desc`,
      [partnerId, ...params],
    );
    return rows as { id: string; kind: string }[];
  };

  it("holds every payment and collection of the partner, newest first, each with its transaction type; none of another partner's", async () => {
    const expected = await union(ACME);
    expect(expected.length).toBe(600);
    const res = await post('viewer@acme.test', 'search', { table: 'all', size: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(600);
    expect(res.body.data.map((r) => [r.id, r.transactionType])).toEqual(expected.map((r) => [r.id, r.kind]));
    const kora = new Set((await union(KORA)).map((r) => r.id));
    expect(res.body.data.some((r) => kora.has(r.id!))).toBe(false);
    // the rows carry no partner
    expect(Object.keys(res.body.data[0]!)).not.toContain('partnerId');
  });

  it.each([
    ['transaction type payout', { transactionType: 'Payout' }, "kind = 'payout'", []],
    ['transaction type topup', { transactionType: 'topup' }, "kind = 'topup'", []],
    ['status', { status: 'complete' }, "status = 'complete'", []],
    ['a status group', { status: 'failed,refund_failed' }, "status in ('failed', 'refund_failed')", []],
    ['country', { country: 'NG' }, "country = 'NG'", []],
    ['payment method', { paymentMethod: 'MOBILE_MONEY' }, "payment_method = 'mobile_money'", []],
    ['request source', { requestSource: 'Portal' }, "request_source = 'portal'", []],
    [
      'four at once',
      { transactionType: 'topup', status: 'complete', country: 'KE', paymentMethod: 'mobile_money' },
      "kind = 'topup' and status = 'complete' and country = 'KE' and payment_method = 'mobile_money'",
      [],
    ],
  ])('filters by %s: the rows and the total are those of the two tables where it holds', async (_, filters, where, params) => {
    const expected = await union(ACME, where, params);
    expect(expected.length).toBeGreaterThan(0);
    const res = await post('treasury@acme.test', 'search', { table: 'all', filters, size: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(expected.length);
    expect(res.body.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('keeps to a wallet: a row without one is the USD wallet', async () => {
    for (const wallet of ['USD', 'NGN']) {
      const expected = await union(ACME, `coalesce(fiat_wallet, 'USD') = $2`, [wallet]);
      expect(expected.length, wallet).toBeGreaterThan(0);
      const res = await post('admin@acme.test', 'search', { table: 'all', fiatWallet: wallet, size: 1000 });
      expect(res.body.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    }
  });

  it('pages through every row once, by offset and from an anchor, and the export scroll gives the same rows', async () => {
    const expected = (await union(ACME)).map((r) => r.id);
    const paged: string[] = [];
    let anchor: { index: number; createdAt: string; id: string } | undefined;
    for (let start = 0; start < expected.length; start += 50) {
      const res = await post('admin@acme.test', 'search', { table: 'all', startIndex: start, size: 50, ...(anchor ? { anchor } : {}) });
      expect(res.status).toBe(200);
      paged.push(...res.body.data.map((r) => r.id!));
      const last = res.body.data.at(-1)!;
      anchor = { index: start + res.body.data.length - 1, createdAt: last.createdAt!, id: last.id! };
    }
    expect(paged).toEqual(expected);

    const scrolled: string[] = [];
    let scrollId: string | null | undefined;
    do {
      const res = await post('admin@acme.test', 'scroll', scrollId ? { table: 'all', scrollSize: 70, scrollId } : { table: 'all', scrollSize: 70 });
      expect(res.status).toBe(200);
      scrolled.push(...res.body.hits.map((r) => r.id!));
      scrollId = res.body.scrollId;
    } while (scrollId);
    expect(scrolled).toEqual(expected);
  });

  it("finds a row by its id's first characters, and opens it by id; another partner's id is not found", async () => {
    const [payment] = await union(ACME, "kind = 'payout'");
    const found = await post('viewer@acme.test', 'search', { table: 'all', idFilter: payment!.id.slice(0, 8) });
    expect(found.body.data.map((r) => r.id)).toContain(payment!.id);
    const one = await s['viewer@acme.test']!.browser.get(`/api/v1/transactions/all/${payment!.id}`, { token: s['viewer@acme.test']!.accessToken });
    expect(one.statusCode).toBe(200);
    expect(one.json<{ table: string; data: Row }>()).toMatchObject({ table: 'all', data: { id: payment!.id, transactionType: 'payout' } });

    const [koraRow] = await union(KORA);
    const theirs = await s['admin@acme.test']!.browser.get(`/api/v1/transactions/all/${koraRow!.id}`, { token: s['admin@acme.test']!.accessToken });
    expect(theirs.statusCode).toBe(404);
    const searched = await post('admin@acme.test', 'search', { table: 'all', idFilter: koraRow!.id });
    expect(searched.body.total).toBe(0);
    // Kora reads its own rows only
    const own = await post('admin@kora.test', 'search', { table: 'all', size: 1000 });
    expect(own.body.data.map((r) => r.id)).toEqual((await union(KORA)).map((r) => r.id));
  });

  it('builds a report of the combined table: the rows of both tables in the range, with their transaction type', async () => {
    const created = await s['viewer@acme.test']!.browser.post(
      '/api/v1/report-jobs/create',
      { dataSource: 'all', startDate: day(-365), endDate: day(0), filters: { paymentMethod: 'bank_transfer' } },
      { token: s['viewer@acme.test']!.accessToken },
    );
    expect(created.statusCode).toBe(200);
    const { job } = created.json<{ job: { id: string } }>();
    let done: { status: string; downloadURL: string | null; rowCount: number | null } | undefined;
    await expect
      .poll(
        async () => {
          done = (await s['viewer@acme.test']!.browser.get(`/api/v1/report-jobs/${job.id}`, { token: s['viewer@acme.test']!.accessToken })).json<{
            job: NonNullable<typeof done>;
          }>().job;
          return done.status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^(complete|failed)$/);
    expect(done!.status).toBe('complete');
    const expected = await union(ACME, `payment_method = 'bank_transfer' and created_at >= $2::date and created_at < ($3::date + 1)`, [day(-365), day(0)]);
    expect(expected.length).toBeGreaterThan(0);
    expect(done!.rowCount).toBe(expected.length);
    const file = await s['viewer@acme.test']!.browser.get(done!.downloadURL!, { token: s['viewer@acme.test']!.accessToken });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 3)).toEqual(['ID', 'Created (UTC)', 'Transaction Type']);
    const byId = new Map(expected.map((r) => [r.id, r.kind === 'payout' ? 'Pay out' : 'Top up']));
    const fileRows = lines.slice(1).map((l) => l.split(','));
    expect(new Set(fileRows.map((r) => r[0]))).toEqual(new Set(byId.keys()));
    for (const r of fileRows) expect(r[2], r[0]).toBe(byId.get(r[0]!));
  });
});
