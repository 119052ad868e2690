import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv } from '@portal/contract/export-columns';
import type { SearchTable, TransactionRowOf } from '@portal/contract/transactions';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions, TRANSACTION_TABLES } from '../src/db/seed/transactions.ts';
import { parseCsv } from './csv-text.ts';
import { DATABASES, setup, signIn, startTestReportWorker, type TestContext } from './harness.ts';

/**
 * The files of the transaction tables: a report file is the portal's export of the same rows (one column set), and
 * its values are the ones the screen shows, checked here against the database rows: every amount a plain number
 * with its currency beside it, labels instead of stored values, times in UTC.
 */

type Session = Awaited<ReturnType<typeof signIn>>;
type Job = { id: string; status: string; downloadURL: string | null; rowCount: number | null };
type Db = Record<string, unknown>;
const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const RANGE = { startDate: day(-365), endDate: day(0) };

/** A stored decimal to n places, by its digits (the seed stores money with 2 decimals): '7957.00000000' → '7957.00'. */
const places = (value: unknown, n: number) => {
  const [whole, fraction = ''] = String(value).split('.');
  return n === 0 ? whole : `${whole}.${fraction.padEnd(n, '0').slice(0, n)}`;
};
/** A crypto amount as written: its digits, trailing zeros dropped down to 2 decimals. */
const crypto = (value: unknown) => String(value).replace(/(\.\d\d\d*?)0+$/, '$1');
const utc = (value: unknown) => (value as Date).toISOString().slice(0, 19).replace('T', ' ');
const NUMBER = /^-?\d+\.\d{2,8}$/;
const CURRENCY = /^[A-Z]{3,5}$/;

describe.each(DATABASES)('files of the transaction tables on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, jobs: true });
    const db = t.database.db;
    await generateTransactions(db, { partnerId: ACME, rows: 60, seed: 'acme-files', fiatWallets: ['USD', 'NGN', 'KES'], tables: TRANSACTION_TABLES });
    await generateTransactions(db, { partnerId: KORA, rows: 60, seed: 'kora-files', fiatWallets: null, tables: ['trades', 'initiated_payments'] });
    // Kora (no fiat wallets) may download reports here, for the files without the Wallet column
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"reportDownloadsEnabled": true}'::jsonb where id = $1`, [KORA]);
    await startTestReportWorker(t);
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (email: string, url: string, body: unknown) => s[email]!.browser.post(url, body, { token: s[email]!.accessToken });
  const get = (email: string, url: string) => s[email]!.browser.get(url, { token: s[email]!.accessToken });

  /** A report of the table over the last year, requested by one user and downloaded by another of the partner. */
  async function reportFile(table: SearchTable, requester: string, downloader: string) {
    const created = await post(requester, '/api/v1/report-jobs/create', { dataSource: table, ...RANGE });
    expect(created.statusCode, `${table}: ${created.body}`).toBe(200);
    const { id } = created.json<{ job: Job }>().job;
    let job: Job | undefined;
    await expect
      .poll(
        async () => {
          job = (await get(requester, `/api/v1/report-jobs/${id}`)).json<{ job: Job }>().job;
          return job.status;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('complete');
    const file = await get(downloader, job!.downloadURL!);
    expect(file.statusCode).toBe(200);
    return file.body;
  }
  /** The rows the portal exports for the same query: the search answer. */
  async function searchRows<T extends SearchTable>(email: string, table: T) {
    const res = await post(email, '/api/v1/transactions/search', { table, range: RANGE, size: 6000 });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: TransactionRowOf<T>[] }>().data;
  }
  async function dbRows(table: string, partnerId: string) {
    const { rows } = await t.database.executeSql(`select * from ${table} where partner_id = $1`, [partnerId]);
    return new Map((rows as Db[]).map((r) => [String(r.id), r]));
  }

  const cases = [
    { table: 'payments', owner: 'admin@acme.test', other: 'viewer@acme.test', walletMode: true },
    { table: 'collections', owner: 'viewer@acme.test', other: 'treasury@acme.test', walletMode: true },
    { table: 'settlements', owner: 'treasury@acme.test', other: 'admin@acme.test', walletMode: true },
    { table: 'fees', owner: 'admin@acme.test', other: 'treasury@acme.test', walletMode: true },
    { table: 'trades', owner: 'admin@kora.test', other: 'admin@kora.test', walletMode: false },
    { table: 'initiate-payments', owner: 'admin@kora.test', other: 'admin@kora.test', walletMode: false },
  ] as const;

  it.each(cases)('a $table report file is the portal export of the same rows, for every role', async ({ table, owner, other, walletMode }) => {
    const file = await reportFile(table, owner, other);
    const rows = await searchRows(owner, table);
    expect(rows.length, table).toBeGreaterThan(10);
    expect(file).toBe(exportCsv(table, rows, { walletMode }));
    const { records } = parseCsv(file);
    expect(records).toHaveLength(rows.length);
    for (const r of records) {
      // no amount written as formatted text ("USDC 7,957.00") anywhere
      for (const [header, value] of Object.entries(r)) {
        expect(value, `${table} ${header}`).not.toMatch(/^[A-Z]{3,5} [\d,]+\.\d+$/);
        if (/amount$|^Amount$|^You (sold|received)$|^Fee$|^Wallet balance$/i.test(header) && value !== '') expect(value, `${table} ${header}`).toMatch(NUMBER);
        if (/currency$/i.test(header) && value !== '') expect(value, `${table} ${header}`).toMatch(CURRENCY);
      }
    }
  });

  it('writes payments and collections with the local amount and currency, the USD side and the rate, labels and UTC times', async () => {
    for (const table of ['payments', 'collections'] as const) {
      const db = await dbRows(table, ACME);
      const { records } = parseCsv(await reportFile(table, 'admin@acme.test', 'admin@acme.test'));
      for (const r of records) {
        const row = db.get(r.ID!)!;
        expect(row, r.ID).toBeDefined();
        expect(r['Created (UTC)']).toBe(utc(row.created_at));
        expect(r.Wallet).toBe(row.fiat_wallet ?? 'USD');
        expect([r.Amount, r.Currency]).toEqual([places(row.amount, 2), row.currency]);
        expect([r['Converted amount'], r['Converted currency']]).toEqual([places(row.converted_amount, 2), 'USD']);
        expect(r['Rate unit']).toBe(`${String(row.currency)} per USD`);
        expect(Number(r.Rate)).toBe(Number(row.rate));
        expect(r['Payment Method']).toBe({ bank_transfer: 'Bank', mobile_money: 'Momo' }[String(row.payment_method)]);
        expect(r.Status).toBe(
          String(row.status)
            .split('_')
            .map((w) => (w === 'kyc' ? 'KYC' : w[0]!.toUpperCase() + w.slice(1)))
            .join(' '),
        );
        if (table === 'collections') expect(r['Request Source']).toBe({ api: 'API', widget: 'Widget', portal: 'Portal' }[String(row.request_source)]);
        else expect(r).not.toHaveProperty('Request Source');
      }
      expect(new Set(records.map((r) => r.Currency)).size, 'several currencies under one Amount header').toBeGreaterThan(1);
    }
  });

  it('writes a settlement with the amount the screen shows: the crypto amount, the USD it moved beside it (withdrawals and top-ups move the USD wallet)', async () => {
    const db = await dbRows('settlements', ACME);
    const { records } = parseCsv(await reportFile('settlements', 'admin@acme.test', 'admin@acme.test'));
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      const row = db.get(r.ID!)!;
      expect(r['Transaction type']).toBe(row.type === 'payout' ? 'Pay out' : 'Top up');
      expect(row.fiat_wallet).toBe('USD');
      expect([r['Crypto amount'], r['Crypto currency']]).toEqual([crypto(row.crypto_amount), row.crypto_currency]);
      expect([r['USD amount'], r['USD currency']]).toEqual([places(row.fiat_amount_usd, 2), 'USD']);
      expect([r.Amount, r.Currency]).toEqual([crypto(row.crypto_amount), row.crypto_currency]);
      expect([r['Fiat amount'], r['Fiat currency']]).toEqual(['', '']);
    }
  });

  it('writes fees in USD, trades as sold and received amounts with their currencies, initiated payments in their currency', async () => {
    const fees = await dbRows('fees', ACME);
    for (const r of parseCsv(await reportFile('fees', 'admin@acme.test', 'admin@acme.test')).records) {
      const row = fees.get(r.ID!)!;
      expect([r.Amount, r.Currency, r['Transaction ID']]).toEqual([places(row.amount_usd, 2), 'USD', row.transaction_id]);
    }
    const trades = new Map([...(await dbRows('trades', KORA)).values()].map((row) => [String(row.trade_id), row]));
    const tradeRecords = parseCsv(await reportFile('trades', 'admin@kora.test', 'admin@kora.test')).records;
    for (const r of tradeRecords) {
      const row = trades.get(r['Trade ID']!)!;
      expect(r.ID).toBe(row.id);
      const sale = Number(row.crypto_sold) > 0;
      expect([r['You sold'], r['You sold currency']]).toEqual(
        sale ? [crypto(row.crypto_sold), row.crypto_currency] : [places(row.fiat_sold, 2), row.fiat_currency],
      );
      expect([r['You received'], r['You received currency']]).toEqual(
        sale ? [places(row.fiat_bought, 2), row.fiat_currency] : [crypto(row.crypto_bought), row.crypto_currency],
      );
      expect(r['Rate including fee unit']).toBe(`${String(row.fiat_currency)} per ${String(row.crypto_currency)}`);
      expect([r.Fee, r['Fee currency']]).toEqual([crypto(row.fee), row.crypto_currency]);
      expect(r).not.toHaveProperty('Wallet');
    }
    expect(new Set(tradeRecords.map((r) => r['You sold currency'])).size).toBeGreaterThan(1);
    const initiated = await dbRows('initiated_payments', KORA);
    for (const r of parseCsv(await reportFile('initiate-payments', 'admin@kora.test', 'admin@kora.test')).records) {
      const row = initiated.get(r.ID!)!;
      expect([r.Amount, r.Currency, r['USD amount'], r['USD currency']]).toEqual([places(row.amount, 2), row.local_currency, places(row.amount_usd, 2), 'USD']);
    }
  });

  it("never writes another partner's rows", async () => {
    const { records } = parseCsv(await reportFile('trades', 'admin@acme.test', 'viewer@acme.test'));
    const kora = await dbRows('trades', KORA);
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((r) => kora.has(r.ID!))).toEqual([]);
  });

  it('quotes a payer name holding a separator of any common locale, and neutralises a formula after it', async () => {
    // a row of the report's period (the demo's rows go back 18 months, the report one year)
    const target = (await searchRows('admin@acme.test', 'collections'))[0]!.id;
    await t.database.executeSql(`update collections set counterparty_name = $1 where partner_id = $2 and id = $3`, ['x;=1+1', ACME, target]);
    const file = await reportFile('collections', 'admin@acme.test', 'admin@acme.test');
    // a spreadsheet splitting on ";" (French and much of Europe and Africa) reads "x" and the text "'=1+1", never a formula
    expect(file).toContain(`"x;'=1+1"`);
    expect(file).not.toMatch(/(^|[,;\t])=1\+1/m);
    expect(parseCsv(file).records.find((r) => r.ID === target)?.Counterparty).toBe("x;'=1+1");
  });
});
