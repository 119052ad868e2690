import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_AMOUNT_RANGES } from '@portal/contract/transactions';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
type Page = { data: { cryptoAmount: string; id: string }[]; total: number; code?: string; message?: string };

const KORA = DEMO_PARTNERS.kora.id;
const BAOBAB = DEMO_PARTNERS.baobab.id;

describe.each(DATABASES)("trades' Amount filter on %s", (kind) => {
  let t: TestContext;
  let kora: Session;
  let baobab: Session;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    await generateTransactions(t.database.db, { partnerId: KORA, rows: 300, seed: 'kora-amount', fiatWallets: null, tables: ['trades'] });
    await generateTransactions(t.database.db, { partnerId: BAOBAB, rows: 300, seed: 'baobab-amount', fiatWallets: null, tables: ['trades'] });
    kora = await signIn(t, 'admin@kora.test');
    baobab = await signIn(t, 'admin@baobab.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (who: Session, amount: string | undefined, size = 300) => {
    const res = await who.browser.post(
      '/api/v1/transactions/search',
      { table: 'trades', size, filters: amount === undefined ? {} : { amount } },
      { token: who.accessToken },
    );
    return { status: res.statusCode, body: res.json<Page>() };
  };
  const koraTotal = async (where: string, params: unknown[]) => {
    const { rows } = await t.database.executeSql(`select count(*)::int as n from trades where partner_id = $1 and ${where}`, [KORA, ...params]);
    return Number((rows[0] as { n: number }).n);
  };

  it('keeps the trades whose crypto amount is in the range, the lower end included and the upper excluded', async () => {
    const all = await search(kora, undefined);
    let sum = 0;
    for (const range of TRADE_AMOUNT_RANGES) {
      const { status, body } = await search(kora, range);
      expect(status, range).toBe(200);
      const [min, max] = range.split('-');
      expect(body.total, range).toBe(await koraTotal(max ? 'crypto_amount >= $2 and crypto_amount < $3' : 'crypto_amount >= $2', max ? [min, max] : [min]));
      for (const row of body.data) {
        // decimal strings compared as numbers of cents: whole-number bounds, so no float doubt at the edge
        const cents = Math.round(Number(row.cryptoAmount) * 100);
        expect(cents, `${range} ${row.cryptoAmount}`).toBeGreaterThanOrEqual(Number(min) * 100);
        if (max) expect(cents, `${range} ${row.cryptoAmount}`).toBeLessThan(Number(max) * 100);
      }
      sum += body.total;
    }
    // the ranges split the trades without a gap or an overlap
    expect(sum).toBe(all.body.total);
    expect(all.body.total).toBeGreaterThan(0);
  });

  it("answers one partner's trades only, whatever the range", async () => {
    const mine = new Set((await search(kora, '0-100000')).body.data.map((r) => r.id));
    const theirs = (await search(baobab, '0-100000')).body.data.map((r) => r.id);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.filter((id) => mine.has(id))).toEqual([]);
  });

  it('refuses an amount that is not a range, with the error shape and no 500', async () => {
    for (const amount of ['abc', '1000', '-5-10', '1e3-', '10-5.5', '1'.repeat(16) + '-']) {
      const { status, body } = await search(kora, amount);
      expect(status, amount).toBe(400);
      expect(body.code, amount).toBe('ValidationFailed');
      expect(body.message, amount).toContain('amount range');
    }
  });

  it('adds nothing on tables without an Amount filter', async () => {
    const res = await kora.browser.post(
      '/api/v1/transactions/search',
      { table: 'initiate-payments', size: 5, filters: { amount: '0-1' } },
      { token: kora.accessToken },
    );
    expect(res.statusCode).toBe(200);
    const plain = await kora.browser.post('/api/v1/transactions/search', { table: 'initiate-payments', size: 5 }, { token: kora.accessToken });
    expect(res.json<Page>().total).toBe(plain.json<Page>().total);
  });
});
