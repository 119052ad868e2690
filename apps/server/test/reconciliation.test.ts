import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUnits } from '@portal/contract/decimal';
import type { FeeRow } from '@portal/contract/transaction-rows';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { reconcileTables, type TableReconciliation } from '../src/db/seed/reconcile-tables.ts';

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const FEE_KINDS = ['disbursement_fee', 'collection_fee', 'disbursement_fee_reversal'];
/** The table that shows each kind of ledger entry (the fee kinds: Fees). */
const TABLE_OF: Record<string, 'payments' | 'collections' | 'settlements'> = {
  disbursement: 'payments',
  disbursement_reversal: 'payments',
  disbursement_refund: 'payments',
  collection: 'collections',
  collection_refund: 'collections',
  settlement: 'settlements',
  settlement_reversal: 'settlements',
  topup: 'settlements',
};

type Entry = { kind: string; reference: string; amount: string; created_at: Date };

/**
 * What a finance lead checks at month end, on the demo data: for last month and each of Acme's wallets, every ledger
 * entry of the wallet's account is shown by exactly one table row of that wallet, and Fees (as the API serves it for
 * the month and the wallet) adds up to the fees the statement took, to the cent.
 */
describe.each(DATABASES)('every table agrees with the ledger (%s)', (kind) => {
  let t: TestContext;
  let session: Awaited<ReturnType<typeof signIn>>;
  // last month, whole UTC days
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const range = { startDate: day(from), endDate: day(new Date(to.getTime() - 86_400_000)) };

  beforeAll(async () => {
    t = await setup(kind, { transactions: true, config: { LOGIN_RATE_LIMIT: '1000' } });
    session = await signIn(t, 'treasury@acme.test');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const entries = async (currency: string, partnerId = ACME) =>
    (
      await sql<Entry>`select kind, reference, amount::text as amount, created_at from ledger_entries
        where partner_id = ${partnerId} and currency = ${currency} and kind <> 'opening_balance' and created_at >= ${from} and created_at < ${to}
        order by created_at, id`.execute(t.database.db)
    ).rows;

  it.each(['USD', 'NGN', 'KES'])('%s: each entry of last month is shown by exactly one row of the wallet, for its amount and moment', async (currency) => {
    const booked = await entries(currency);
    expect(booked.length).toBeGreaterThan(currency === 'USD' ? 100 : 10);
    const inWallet = (w: string | null) => (w ?? 'USD') === currency;
    const unmatched: string[] = [];
    for (const e of booked) {
      const what = `${e.kind} ${e.reference} ${e.amount}`;
      if (FEE_KINDS.includes(e.kind)) {
        // a fee row of the wallet for this order, at the entry's moment, for what the entry took (minus: given back)
        const rows = await t.database.db
          .selectFrom('fees')
          .select(['amount_usd', 'fiat_wallet', 'created_at'])
          .where('partner_id', '=', ACME)
          .where('transaction_id', '=', e.reference)
          .execute();
        const shown = rows.filter(
          (r) =>
            inWallet(r.fiat_wallet) && toUnits(r.amount_usd) === -toUnits(e.amount) && new Date(r.created_at).getTime() === new Date(e.created_at).getTime(),
        );
        if (shown.length !== 1) unmatched.push(`${what}: ${shown.length} fee rows`);
        continue;
      }
      const table = TABLE_OF[e.kind];
      if (!table) {
        unmatched.push(`${what}: no table shows this kind`);
        continue;
      }
      const row = await t.database.db.selectFrom(table).select('fiat_wallet').where('partner_id', '=', ACME).where('id', '=', e.reference).executeTakeFirst();
      if (!row || !inWallet(row.fiat_wallet)) unmatched.push(`${what}: ${row ? `on wallet ${row.fiat_wallet ?? 'USD'}` : 'no row'}`);
    }
    expect(unmatched).toEqual([]);
  });

  it('USD: Fees, as the API serves it for last month and the USD wallet, lists each fee taken or given back and adds up to the statement', async () => {
    const fees = (await entries('USD')).filter((e) => FEE_KINDS.includes(e.kind));
    expect(fees.some((e) => e.kind === 'disbursement_fee_reversal')).toBe(true);
    const res = await session.browser.post(
      '/api/v1/transactions/search',
      { table: 'fees', range, fiatWallet: 'USD', size: 6000 },
      { token: session.accessToken },
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ total: number; data: FeeRow[] }>();
    expect(page.total).toBe(page.data.length);
    // one row per fee entry, and the same money: what Fees lists taken is what the statement's fee lines took
    expect(page.data.length).toBe(fees.length);
    const listed = page.data.reduce((sum, r) => sum + toUnits(r.amountUsd), 0n);
    const taken = -fees.reduce((sum, e) => sum + toUnits(e.amount), 0n);
    expect(listed).toBe(taken);
    // and the statement of the month, as the portal downloads it, shows the same fee lines
    const csv = await session.browser.get(`/api/v1/partner/balance/statement.csv?from=${range.startDate}&to=${range.endDate}`, { token: session.accessToken });
    expect(csv.statusCode).toBe(200);
    const feeLines = csv.body.split('\r\n').filter((l) => /Payment fee|Collection fee|fee returned/.test(l));
    expect(feeLines.length).toBe(fees.length);
  });

  it('Fees lists no fee that was never taken: every row of the month is a fee entry of the ledger', async () => {
    const rows = await t.database.db
      .selectFrom('fees')
      .select(['id', 'transaction_id', 'amount_usd', 'created_at'])
      .where('partner_id', '=', ACME)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .execute();
    expect(rows.length).toBeGreaterThan(10);
    const fees = (await entries('USD')).filter((e) => FEE_KINDS.includes(e.kind));
    const key = (ref: string, amount: bigint, at: Date) => `${ref} ${amount} ${new Date(at).getTime()}`;
    const booked = new Set(fees.map((e) => key(e.reference, -toUnits(e.amount), e.created_at)));
    expect(rows.filter((r) => !booked.has(key(r.transaction_id, toUnits(r.amount_usd), r.created_at)))).toEqual([]);
  });

  /** The opening and closing balances of last month's USD statement, as the partner downloads it, in cents. */
  const statementEnds = async (as: Awaited<ReturnType<typeof signIn>>) => {
    const csv = await as.browser.get(`/api/v1/partner/balance/statement.csv?from=${range.startDate}&to=${range.endDate}`, { token: as.accessToken });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const balanceOf = (label: string) => toUnits(lines.find((l) => l.split(',')[1] === label)!.split(',')[5]!);
    return { opening: balanceOf('Opening balance'), closing: balanceOf('Closing balance') };
  };

  it("USD: the month's movement on the statement (closing less opening) is the sum of the rows' entries, table by table", async () => {
    const booked = await entries('USD');
    const byTable = new Map<string, bigint>();
    for (const e of booked) {
      const table = FEE_KINDS.includes(e.kind) ? 'fees' : TABLE_OF[e.kind]!;
      byTable.set(table, (byTable.get(table) ?? 0n) + toUnits(e.amount));
    }
    expect([...byTable.keys()].sort()).toEqual(['collections', 'fees', 'payments', 'settlements']);
    const { opening, closing } = await statementEnds(session);
    expect([...byTable.values()].reduce((a, b) => a + b, 0n)).toBe(closing - opening);
  });

  it('a commercial partner (Kora): each USD entry of the month is one of its initiated payments, for its amount; the statement moves by their sum; trades move no balance', async () => {
    const kora = await signIn(t, 'admin@kora.test');
    const booked = await entries('USD', KORA);
    expect(booked.length).toBeGreaterThan(3);
    const unmatched: string[] = [];
    for (const e of booked) {
      const row = await t.database.db
        .selectFrom('initiated_payments')
        .select(['amount_usd', 'status', 'created_at'])
        .where('partner_id', '=', KORA)
        .where('id', '=', e.reference)
        .executeTakeFirst();
      const what = `${e.kind} ${e.reference} ${e.amount}`;
      if (!row) unmatched.push(`${what}: no initiated payment`);
      else if (toUnits(row.amount_usd) !== (toUnits(e.amount) < 0n ? -toUnits(e.amount) : toUnits(e.amount)))
        unmatched.push(`${what}: row of ${row.amount_usd}`);
      else if (e.kind === 'disbursement' && new Date(row.created_at).getTime() !== new Date(e.created_at).getTime())
        unmatched.push(`${what}: not at the row's moment`);
      else if (e.kind === 'disbursement_reversal' && !['failed', 'expired', 'denied'].includes(row.status))
        unmatched.push(`${what}: returned while ${row.status}`);
    }
    expect(unmatched).toEqual([]);
    // every initiated payment of the month that was made was booked
    const made = await t.database.db
      .selectFrom('initiated_payments')
      .select('id')
      .where('partner_id', '=', KORA)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .execute();
    expect(made.length).toBeGreaterThan(3);
    const debited = new Set(booked.filter((e) => e.kind === 'disbursement').map((e) => e.reference));
    expect(made.filter((m) => !debited.has(m.id))).toEqual([]);
    const { opening, closing } = await statementEnds(kora);
    expect(booked.reduce((sum, e) => sum + toUnits(e.amount), 0n)).toBe(closing - opening);
    // trades settle outside the balance (the coins on chain, the local currency to the partner's bank): the month has
    // trades, and no entry of any time is one
    const trades = await sql<{ n: number; booked: number }>`
      select (select count(*)::int from trades where partner_id = ${KORA} and created_at >= ${from} and created_at < ${to}) as n,
        (select count(*)::int from ledger_entries l join trades tr on tr.partner_id = l.partner_id and tr.id::text = l.reference where l.partner_id = ${KORA}) as booked`.execute(
      t.database.db,
    );
    expect(trades.rows[0]!.n).toBeGreaterThan(0);
    expect(trades.rows[0]!.booked).toBe(0);
  });

  it.each([
    ['acme', 'USD'],
    ['acme', 'NGN'],
    ['acme', 'KES'],
    ['kora', 'USD'],
  ] as const)(
    '%s %s, set-based (as `npm run bench -- reconcile` checks a large seed): every entry in exactly one row, Fees adds up to the fees taken',
    async (name, currency) => {
      const r = await reconcileTables(t.database.db, DEMO_PARTNERS[name].id, currency, from, to);
      expect(r.entries).toBeGreaterThan(3);
      expect(r.unmatched).toBe(0);
      expectPartition(r);
    },
  );
});

/** The tables' sums partition the entries' total, and Fees is exactly the fee entries (none listed that was not booked). */
function expectPartition(r: TableReconciliation) {
  const sum = Object.values(r.byTable).reduce((a, v) => a + toUnits(v), 0n);
  expect(sum).toBe(toUnits(r.total));
  expect(toUnits(r.byTable.fees)).toBe(-toUnits(r.feeRowsTotal));
  expect(toUnits(r.feeRowsTotal)).toBe(toUnits(r.feesTaken));
  expect(r.feeRowsNotBooked).toBe(0);
}
