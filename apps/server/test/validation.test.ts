import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { MANUAL_PAYOUT } from '@portal/contract/payout';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { DATABASES, browser, setup, signIn, type TestContext } from './harness.ts';

/**
 * The inputs the hardening review found answering 500 (NUL and lone surrogates in filters, wallet and report
 * filters; dates of the right shape that do not exist; a non-ASCII scroll id signature; malformed URLs): each is
 * refused with a 4xx in the error shape, naming the field.
 */
describe.each(DATABASES)('bad input is refused, never a 500, on %s', (kind) => {
  let t: TestContext;
  let session: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    await generateTransactions(t.database.db, {
      partnerId: DEMO_PARTNERS.acme.id,
      rows: 30,
      seed: 'validation',
      fiatWallets: ['USD', 'NGN'],
      tables: ['payments', 'collections'],
    });
    session = await signIn(t, 'admin@acme.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (url: string, body: unknown) => {
    const res = await session.browser.post(url, body, { token: session.accessToken });
    return { status: res.statusCode, body: res.json<ErrorBody & Record<string, unknown>>(), requestId: res.headers['x-request-id'] };
  };
  /** A report of January's payments, to which each case adds the field it tries. */
  const JANUARY_REPORT = { dataSource: 'payments', startDate: '2026-01-01', endDate: '2026-01-31' };
  const expectRefused = async (url: string, body: unknown, field: string, says: string | RegExp) => {
    const res = await post(url, body);
    expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
    expect(ErrorBody.parse(res.body)).toMatchObject({ code: 'ValidationFailed', requestId: res.requestId });
    expect(res.body.message).toContain(field);
    expect(res.body.message).toMatch(says);
  };

  it('refuses NUL and other control characters in filters, id search and wallet', async () => {
    await expectRefused('/api/v1/transactions/search', { table: 'payments', filters: { status: 'complete\u0000' } }, 'Filters › status', 'control characters');
    await expectRefused('/api/v1/transactions/search', { table: 'payments', fiatWallet: 'NGN\u0000' }, 'Fiat wallet', 'control characters');
    await expectRefused('/api/v1/transactions/search', { table: 'payments', idFilter: 'ab\u0000cd' }, 'ID must', 'control characters');
    await expectRefused('/api/v1/transactions/search', { table: 'payments', filters: { country: 'N\u001bG' } }, 'Filters › country', 'control characters');
    await expectRefused('/api/v1/transactions/scroll', { table: 'payments', filters: { status: '\u0000' } }, 'Filters › status', 'control characters');
    await expectRefused('/api/v1/report-jobs/create', { ...JANUARY_REPORT, filters: { status: 'a\u0000' } }, 'Filters › status', 'control characters');
    await expectRefused('/api/v1/report-jobs/create', { ...JANUARY_REPORT, fiatWallet: '\u0000' }, 'Fiat wallet', 'control characters');
  });

  it('refuses lone UTF-16 surrogates (which jsonb cannot store)', async () => {
    await expectRefused('/api/v1/report-jobs/create', { ...JANUARY_REPORT, filters: { status: '\ud800' } }, 'Filters › status', 'surrogate');
    await expectRefused('/api/v1/report-jobs/create', { ...JANUARY_REPORT, fiatWallet: 'x\udc00' }, 'Fiat wallet', 'surrogate');
    await expectRefused('/api/v1/transactions/search', { table: 'payments', fiatWallet: '\udfff' }, 'Fiat wallet', 'surrogate');
    // a whole pair is fine: an emoji is text
    expect((await post('/api/v1/transactions/search', { table: 'payments', filters: { status: '😀' } })).status).toBe(200);
  });

  it('refuses filter keys outside the list', async () => {
    await expectRefused('/api/v1/transactions/search', { table: 'payments', filters: { stauts: 'complete' } }, 'Filters', /stauts|key/i);
  });

  it('refuses dates of the right shape that do not exist, in searches, reports and payout schedules', async () => {
    for (const day of ['2026-02-30', '2026-13-01', '0000-01-01', '2025-02-29', '2026-04-31', '2026-00-10']) {
      await expectRefused(
        '/api/v1/transactions/search',
        { table: 'payments', range: { startDate: day, endDate: '2026-12-31' } },
        'Range › start date',
        'must be a real date',
      );
      await expectRefused(
        '/api/v1/transactions/scroll',
        { table: 'payments', range: { startDate: '2026-01-01', endDate: day } },
        'Range › end date',
        'must be a real date',
      );
      await expectRefused('/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day, endDate: '2026-12-31' }, 'Start date', 'must be a real date');
    }
    await expectRefused(
      '/api/v1/partner/payout-config',
      { ...MANUAL_PAYOUT, type: 'AUTOMATED', frequency: 'Daily', repeatFrequency: 1, endPayout: 'On', endPayoutDate: '2027-02-29' },
      'End date',
      'must be a real date',
    );
    // a real leap day, and the first and last days there are, are fine
    expect((await post('/api/v1/transactions/search', { table: 'payments', range: { startDate: '2024-02-29', endDate: '2024-02-29' } })).status).toBe(200);
    expect((await post('/api/v1/transactions/search', { table: 'payments', range: { startDate: '0001-01-01', endDate: '9999-12-31' } })).status).toBe(200);
    expect((await post('/api/v1/report-jobs/create', { dataSource: 'payments', startDate: '2024-02-29', endDate: '2024-03-31' })).status).toBe(200);
  });

  it('refuses a scroll id whose signature holds non-ASCII characters, as any other bad scroll id', async () => {
    const first = await post('/api/v1/transactions/scroll', { table: 'payments', scrollSize: 5 });
    expect(first.status).toBe(200);
    const [body] = String(first.body.scrollId).split('.');
    for (const mac of ['é'.repeat(43), '€'.repeat(43), `${'a'.repeat(42)}é`, '😀'.repeat(21) + 'a']) {
      const res = await post('/api/v1/transactions/scroll', { table: 'payments', scrollId: `${body}.${mac}` });
      expect(res.status, mac).toBe(400);
      expect(ErrorBody.parse(res.body)).toMatchObject({ code: 'BadRequest' });
      expect(res.body.message).toContain('scroll id is not valid');
    }
  });

  it('answers malformed and over-long URLs in the error shape', async () => {
    const bad = await session.browser.get('/api/v1/report-jobs/%zz', { token: session.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json())).toMatchObject({ code: 'BadRequest', requestId: bad.headers['x-request-id'] });
    const long = await session.browser.get(`/api/v1/report-jobs/${'x'.repeat(5000)}`, { token: session.accessToken });
    expect(long.statusCode).toBe(414);
    expect(ErrorBody.parse(long.json())).toMatchObject({ code: 'BadRequest' });
    const anonymous = await browser(t.app).get('/api/v1/report-jobs/%C0%AF');
    expect(anonymous.statusCode).toBe(400);
    expect(ErrorBody.safeParse(anonymous.json()).success).toBe(true);
  });
});
