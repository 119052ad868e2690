import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_KIND_LABELS } from '@portal/contract/balance';
import { FINAL_STATUSES } from '@portal/contract/status-groups';
import { compareDecimal, normalise, subtractDecimal, toUnits } from '@portal/contract/decimal';
import { countryByLocale } from '@portal/contract/countries';
import { accountNumberProblem } from '@portal/contract/payments';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_PARTNERS, seedDemo } from '../src/db/seed/demo.ts';
import { enabledMarkets } from '../src/modules/payments/payments.repository.ts';
import { validateAddress } from '../src/lib/deposit-addresses.ts';
import { DATABASES, freshDatabase, setup, signIn, testKeys, type TestContext } from './harness.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Network } from '@portal/contract/domain';

/** The demo seed, with its transactions, against the rules the API enforces on the same data. */
describe.each(DATABASES)('the demo data tells no lies (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
    await migrateToLatest(database.db);
    await seedDemo(database.db, testKeys().encryptionKey);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it.each(['acme', 'lean'] as const)(
    '%s: a withdrawal or top-up belongs to the USD wallet it moved, in USD, with addresses and a transaction id of its network',
    async (name) => {
      const p = DEMO_PARTNERS[name];
      const rows = await database.db.selectFrom('settlements').selectAll().where('partner_id', '=', p.id).execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const s of rows) {
        const what = `${s.id} ${s.network} ${s.internal_wallet_address} ${s.external_wallet_address} ${s.transaction_hash}`;
        expect(s.fiat_wallet, what).toBe(p.fiatWalletsEnabled ? 'USD' : null);
        expect(normalise(s.fiat_amount ?? '', 2), what).toBe(normalise(s.fiat_amount_usd, 2));
        expect(validateAddress(s.network as Network, s.internal_wallet_address), what).toBe(true);
        expect(validateAddress(s.network as Network, s.external_wallet_address), what).toBe(true);
        const hash = s.network === 'SOL' ? /^[1-9A-HJ-NP-Za-km-z]{87,88}$/ : s.network === 'TRC20' ? /^[0-9a-f]{64}$/ : /^0x[0-9a-f]{64}$/;
        expect(s.transaction_hash ?? '', what).toMatch(hash);
      }
      // several networks, so that the check saw more than one form
      expect(new Set(rows.map((r) => r.network)).size).toBeGreaterThan(2);
    },
  );

  it("acme: each withdrawal's and top-up's wallet balance is the USD balance right after it (before it, when it moved nothing)", async () => {
    const id = DEMO_PARTNERS.acme.id;
    const r = await sql<{ id: string; type: string; status: string; shown: string; balance: string | null }>`
      with runs as (
        select reference, kind, created_at, id, sum(amount) over (order by created_at, id) as running
        from ledger_entries where partner_id = ${id} and currency = 'USD'
      )
      select s.id::text, s.type, s.status, s.wallet_balance_usd::text as shown,
        coalesce(
          (select running::text from runs where reference = s.id::text and kind in ('settlement', 'topup')),
          (select running::text from runs where created_at <= s.created_at order by created_at desc, id desc limit 1)
        ) as balance
      from settlements s where s.partner_id = ${id}`.execute(database.db);
    expect(r.rows.length).toBeGreaterThan(100);
    const wrong = r.rows.filter((row) => compareDecimal(row.shown, row.balance ?? '0') !== 0);
    expect(wrong).toEqual([]);
    // never a negative balance, and not one figure for all (the old demo showed three times the amount)
    expect(r.rows.every((row) => compareDecimal(row.shown, '0') >= 0)).toBe(true);
    expect(new Set(r.rows.map((row) => row.shown)).size).toBeGreaterThan(100);
  });

  it('no withdrawal or top-up is still under way past its processing time: the ones pending or processing are of the last hour', async () => {
    const rows = await database.db
      .selectFrom('settlements')
      .select(['partner_id', 'status', 'created_at'])
      .where('status', 'in', ['pending', 'processing'])
      .execute();
    const hour = Date.now() - 3_600_000;
    expect(rows.filter((r) => new Date(r.created_at).getTime() < hour)).toEqual([]);
    const all = await database.db.selectFrom('settlements').select(['status']).execute();
    expect(all.filter((r) => r.status === 'complete').length).toBeGreaterThan(all.length / 2);
    expect(all.some((r) => r.status === 'failed')).toBe(true);
  });

  it('no payment, collection or initiated payment is still under way past its processing time (48 hours); some are, and complete, failed and expired ones are there', async () => {
    const cutoff = Date.now() - 48 * 3_600_000;
    for (const table of ['payments', 'collections', 'initiated_payments'] as const) {
      const rows = await database.db.selectFrom(table).select(['id', 'status', 'created_at']).execute();
      const underWay = rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status));
      expect(
        underWay.filter((r) => new Date(r.created_at).getTime() < cutoff),
        table,
      ).toEqual([]);
      expect(underWay.length, table).toBeGreaterThan(0);
      for (const status of ['complete', 'failed', 'expired'])
        expect(
          rows.some((r) => r.status === status),
          `${table} ${status}`,
        ).toBe(true);
    }
  });

  it("the README's balances are the demo's", async () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    for (const name of ['acme', 'kora', 'lean'] as const) {
      const p = DEMO_PARTNERS[name];
      const row = await database.db
        .selectFrom('currency_accounts')
        .select('balance')
        .where('partner_id', '=', p.id)
        .where('currency', '=', 'USD')
        .executeTakeFirstOrThrow();
      const shown = Number(normalise(String(row.balance), 2)).toLocaleString('en-US', { minimumFractionDigits: 2 });
      expect(readme, `${p.name} USD ${shown}`).toContain(`${p.name} USD ${shown}`);
    }
  });

  it.each(['acme', 'kora'] as const)("%s's payments, collections, trades and initiated payments are only in its enabled countries", async (name) => {
    const id = DEMO_PARTNERS[name].id;
    // the rule of the payments API (a payment in a country whose rate is not enabled is refused)
    const enabled = new Set((await enabledMarkets(database.db, id)).map((m) => m.country));
    expect(enabled.size).toBeGreaterThan(0);
    let seen = 0;
    for (const table of ['collections', 'payments', 'trades', 'initiated_payments'] as const) {
      const rows = await database.db.selectFrom(table).select('country').distinct().where('partner_id', '=', id).execute();
      seen += rows.length;
      expect(
        rows.map((r) => r.country).filter((c) => !enabled.has(c)),
        table,
      ).toEqual([]);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a phone account number is valid for the payment forms and starts with its country's dialling code", async () => {
    const rows = await database.db
      .selectFrom('collections')
      .select(['country', 'account_number'])
      .where('account_type', '=', 'phone')
      .unionAll((eb) => eb.selectFrom('payments').select(['country', 'account_number']).where('account_type', '=', 'phone'))
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const wrong = rows.filter((r) => {
      const dialling = countryByLocale(r.country)!.code.replace(/\D/g, '');
      return accountNumberProblem('phone', r.account_number ?? '') !== undefined || !(r.account_number ?? '').startsWith(dialling);
    });
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('a fee row has its own id and names the payment it is for', async () => {
    const fees = await database.db.selectFrom('fees').select(['id', 'transaction_id']).execute();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.filter((f) => f.id === f.transaction_id)).toEqual([]);
    expect(fees.every((f) => f.transaction_id)).toBe(true);
  });
});

/** The rules the server books money with, applied to the demo's rows by this test's own reading of the tables. */
async function expectedLedger(db: Database['db'], partnerId: string) {
  const fees = new Map(
    (await db.selectFrom('fees').select(['transaction_id', 'amount_usd']).where('partner_id', '=', partnerId).where('amount_usd', '>', '0').execute()).map(
      (f) => [f.transaction_id, f.amount_usd],
    ),
  );
  const entries: { kind: string; reference: string; currency: string; amount: string }[] = [];
  const add = (kind: string, reference: string, currency: string, amount: string) => {
    if (toUnits(amount) !== 0n) entries.push({ kind, reference, currency, amount: normalise(amount, 8) });
  };
  const neg = (v: string) => subtractDecimal('0', v);
  for (const table of ['payments', 'collections'] as const) {
    const rows = await db.selectFrom(table).select(['id', 'status', 'fiat_wallet', 'amount', 'converted_amount']).where('partner_id', '=', partnerId).execute();
    for (const r of rows) {
      const local = r.fiat_wallet !== null && r.fiat_wallet !== 'USD';
      const currency = local ? r.fiat_wallet! : 'USD';
      const amount = local ? r.amount : r.converted_amount;
      const fee = local ? '0' : (fees.get(r.id) ?? '0');
      if (table === 'payments') {
        add('disbursement', r.id, currency, neg(amount));
        add('disbursement_fee', r.id, currency, neg(fee));
        if (['failed', 'expired', 'denied'].includes(r.status)) {
          add('disbursement_reversal', r.id, currency, amount);
          add('disbursement_fee_reversal', r.id, currency, fee);
        }
        if (r.status === 'refunded') add('disbursement_refund', r.id, currency, amount);
      } else if (r.status === 'complete' || r.status === 'refunded') {
        add('collection', r.id, currency, amount);
        add('collection_fee', r.id, currency, neg(fee));
        if (r.status === 'refunded') add('collection_refund', r.id, currency, neg(amount));
      }
    }
  }
  // a commercial partner's initiated payment without a payments row (the demo writes the initiated one only) is a
  // payment of its USD amount, without a fee
  const mirrored = new Set((await db.selectFrom('payments').select('id').where('partner_id', '=', partnerId).execute()).map((r) => r.id));
  const initiated = await db.selectFrom('initiated_payments').select(['id', 'status', 'amount_usd']).where('partner_id', '=', partnerId).execute();
  for (const r of initiated.filter((i) => !mirrored.has(i.id))) {
    add('disbursement', r.id, 'USD', neg(r.amount_usd));
    if (['failed', 'expired', 'denied'].includes(r.status)) add('disbursement_reversal', r.id, 'USD', r.amount_usd);
    if (r.status === 'refunded') add('disbursement_refund', r.id, 'USD', r.amount_usd);
  }
  const settlements = await db.selectFrom('settlements').select(['id', 'status', 'type', 'fiat_amount_usd']).where('partner_id', '=', partnerId).execute();
  for (const s of settlements) {
    if (s.type === 'payout') {
      add('settlement', s.id, 'USD', neg(s.fiat_amount_usd));
      if (s.status === 'failed') add('settlement_reversal', s.id, 'USD', s.fiat_amount_usd);
    } else if (s.status === 'complete') add('topup', s.id, 'USD', s.fiat_amount_usd);
  }
  return entries;
}

const key = (e: { kind: string; reference: string; currency: string; amount: string }) => `${e.kind} ${e.reference} ${e.currency} ${normalise(e.amount, 8)}`;

describe.each(DATABASES)('the demo ledger reconciles to the transaction tables (%s)', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { transactions: true, config: { LOGIN_RATE_LIMIT: '1000' } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(['acme', 'kora', 'baobab', 'lean'] as const)(
    "%s: every ledger entry is a table row's movement by the server's rules, and every such movement is booked",
    async (name) => {
      const p = DEMO_PARTNERS[name];
      const booked = await t.database.db
        .selectFrom('ledger_entries')
        .select(['kind', 'reference', 'currency', 'amount'])
        .where('partner_id', '=', p.id)
        .where('kind', '<>', 'opening_balance')
        .execute();
      const expected = await expectedLedger(t.database.db, p.id);
      expect(booked.map(key).sort()).toEqual(expected.map(key).sort());
      if (name === 'acme') expect(booked.length).toBeGreaterThan(2000);
    },
  );

  it.each(['acme', 'kora'] as const)('%s: no account ever goes below zero, and each ends at the demo balance where its movements allow', async (name) => {
    const p = DEMO_PARTNERS[name];
    const accounts = await sql<{ currency: string; lowest: string; balance: string }>`
      select currency, min(running)::text as lowest, (array_agg(running order by created_at desc, id desc))[1]::text as balance
      from (select currency, created_at, id, sum(amount) over (partition by currency order by created_at, id) as running
            from ledger_entries where partner_id = ${p.id}) r
      group by currency order by currency`.execute(t.database.db);
    expect(accounts.rows.length).toBeGreaterThan(0);
    for (const a of accounts.rows) {
      expect(compareDecimal(a.lowest, '0'), `${a.currency} lowest ${a.lowest}`).toBeGreaterThanOrEqual(0);
      // the demo's balance; or more, when its movements would otherwise take it below zero (then its lowest point is zero)
      const target = (p.balances as Record<string, string>)[a.currency] ?? '0';
      const ends = compareDecimal(a.balance, target);
      // USD always (what it would hold above was withdrawn); a local account may end above when its lowest point is zero
      if (a.currency === 'USD') expect(ends, `USD ends at ${a.balance}`).toBe(0);
      expect(ends === 0 || (ends > 0 && compareDecimal(a.lowest, '0') === 0), `${a.currency} ends at ${a.balance}, lowest ${a.lowest}`).toBe(true);
    }
  });

  it("acme's statement, read through the API in two periods, reconciles to the cent: opening + entries = closing = the balance", async () => {
    const s = await signIn(t, 'treasury@acme.test');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const read = async (from: string, to: string) => {
      const res = await s.browser.get(`/api/v1/partner/balance/statement.csv?from=${from}&to=${to}`, { token: s.accessToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(','));
    };
    // the demo's 18 months: the earlier part, then the last 365 days (a statement covers at most 366)
    const first = await read(day(-600), day(-366));
    const second = await read(day(-365), day(0));
    const cents = (v: string | undefined) => (v ? toUnits(v, 2) : 0n);
    const rows = [...first.slice(1, -1), ...second.slice(1, -1)];
    const opening = cents(first[0]![5]);
    expect(opening).toBe(0n);
    // the first period's closing is the second's opening
    expect(first.at(-1)![5]).toBe(second[0]![5]);
    let running = opening;
    for (const r of rows) {
      running += cents(r[4]) - cents(r[3]);
      expect(cents(r[5]), r.join(',')).toBe(running);
    }
    expect(running).toBe(cents(second.at(-1)![5]));
    const overview = await s.browser.get('/api/v1/partner/balance', { token: s.accessToken });
    expect(cents(overview.json<{ available: string }>().available)).toBe(running);
    // every line but the opening balance is a movement of a row of the tables, for the amount the rules say
    const expected = new Map<string, bigint>();
    for (const e of await expectedLedger(t.database.db, DEMO_PARTNERS.acme.id)) {
      if (e.currency === 'USD') expected.set(`${e.kind}:${e.reference}`, toUnits(e.amount, 2));
    }
    const kinds = Object.fromEntries(Object.entries(LEDGER_KIND_LABELS).map(([k, label]) => [label, k]));
    const lines = rows.filter((r) => r[1] !== 'Opening balance');
    expect(lines.length).toBe(expected.size);
    for (const r of lines) expect(expected.get(`${kinds[r[1]!]}:${r[2]}`), r.join(',')).toBe(cents(r[4]) - cents(r[3]));
  });
});
