import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_SCHEMAS } from '@portal/contract/transaction-rows';
import { SEARCH_TABLES, idSearchMessage } from '@portal/contract/transactions';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions, TRANSACTION_TABLES } from '../src/db/seed/transactions.ts';
import { DATABASES, browser, setupSignedIn, type Session, type TestContext } from './harness.ts';

type Row = Record<string, string | null>;
type Page = { table: string; data: Row[]; total: number; totalRelation: 'eq' | 'gte' };

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('transaction search on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test'], {
      beforeSignIn: async ({ database: { db } }) => {
        await generateTransactions(db, { partnerId: ACME, rows: 400, seed: 'acme-test', fiatWallets: ['USD', 'NGN', 'KES'], tables: TRANSACTION_TABLES });
        await generateTransactions(db, { partnerId: DEMO_PARTNERS.kora.id, rows: 200, seed: 'kora-test', fiatWallets: null, tables: TRANSACTION_TABLES });
        // more than 10,000 payments for Lean Pay, for the capped total
        await generateTransactions(db, { partnerId: LEAN, rows: 10_050, seed: 'lean-test', fiatWallets: null, tables: ['payments'] });
      },
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (email: string, body: Record<string, unknown>) => {
    const res = await s[email]!.browser.post('/api/v1/transactions/search', body, { token: s[email]!.accessToken });
    return { status: res.statusCode, body: res.json<Page & { code?: string; message?: string }>() };
  };
  const count = async (table: string, where: string, params: unknown[] = []) => {
    const { rows } = await t.database.executeSql(`select count(*)::int as n from ${table} where ${where}`, params);
    return Number((rows[0] as { n: number }).n);
  };

  it('answers newest first, with the exact total, the partner condition always applied', async () => {
    const { status, body } = await search('viewer@acme.test', { table: 'collections', startIndex: 0, size: 10 });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(10);
    expect(body.total).toBe(await count('collections', 'partner_id = $1', [ACME]));
    expect(body.totalRelation).toBe('eq');
    const ids = body.data.map((r) => r.id!);
    expect(await count('collections', 'partner_id = $1 and id = any($2::uuid[])', [ACME, ids])).toBe(10);
    const dates = body.data.map((r) => r.createdAt!);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.data[0]!.amount).toMatch(/^\d+\.\d+$/);
  });

  it('answers each table with its own typed rows, the table named, and never a partnerId', async () => {
    for (const table of SEARCH_TABLES) {
      const { status, body } = await search('admin@acme.test', { table, size: 5 });
      expect(status, table).toBe(200);
      expect(body.table, table).toBe(table);
      expect(body.data.length, table).toBeGreaterThan(0);
      for (const row of body.data) {
        expect(Object.keys(row).sort(), table).toEqual(Object.keys(ROW_SCHEMAS[table].shape).sort());
        expect(row, table).not.toHaveProperty('partnerId');
      }
      const res = await s['admin@acme.test']!.browser.post(
        '/api/v1/transactions/scroll',
        { table, scrollSize: 3 },
        { token: s['admin@acme.test']!.accessToken },
      );
      const batch = res.json<{ table: string; hits: Row[] }>();
      expect(batch.table, table).toBe(table);
      expect(batch.hits.length, table).toBe(3);
      for (const row of batch.hits) expect(Object.keys(row).sort(), table).toEqual(Object.keys(ROW_SCHEMAS[table].shape).sort());
    }
  });

  it("lets every role read its partner's tables (the spec sets no role difference inside them)", async () => {
    const totals = [];
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
      const { status, body } = await search(email, { table: 'fees' });
      expect(status, email).toBe(200);
      totals.push(body.total);
    }
    expect(new Set(totals).size).toBe(1);
    expect(totals[0]).toBeGreaterThan(0);
  });

  it('refuses a forged partnerId and never shows another partner a row', async () => {
    const forged = await search('admin@acme.test', { table: 'payments', partnerId: LEAN });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toContain('partnerId');
    const kora = await search('admin@kora.test', { table: 'trades', size: 1 });
    const koraId = kora.body.data[0]!.id!;
    const fromAcme = await search('admin@acme.test', { table: 'trades', idFilter: koraId });
    expect(fromAcme.body).toMatchObject({ data: [], total: 0 });
    const fromKora = await search('admin@kora.test', { table: 'trades', idFilter: koraId });
    expect(fromKora.body.data.map((r) => r.id)).toEqual([koraId]);
  });

  it('applies each filter of each table, lower-casing status, type, method and source', async () => {
    const cases: [string, Record<string, string>, string, unknown[]][] = [
      ['payments', { status: 'COMPLETE' }, "status = 'complete'", []],
      ['payments', { country: 'NG' }, "country = 'NG'", []],
      ['collections', { status: 'Failed', country: 'KE' }, "status = 'failed' and country = 'KE'", []],
      ['collections', { requestSource: 'WIDGET' }, "request_source = 'widget'", []],
      ['settlements', { status: 'Pending' }, "status = 'pending'", []],
      ['fees', { paymentMethod: 'MOBILE_MONEY' }, "payment_method = 'mobile_money'", []],
      ['fees', { transactionType: 'PAYOUT' }, "transaction_type = 'payout'", []],
    ];
    for (const [table, filters, where] of cases) {
      const { body } = await search('admin@acme.test', { table, filters, size: 100 });
      const expected = await count(table, `partner_id = $1 and ${where}`, [ACME]);
      expect(expected, `${table} ${JSON.stringify(filters)} has rows to find`).toBeGreaterThan(0);
      expect(body.total, `${table} ${JSON.stringify(filters)}`).toBe(expected);
    }
    const trades = await search('admin@kora.test', { table: 'trades', filters: { country: 'GH', cryptoCurrency: 'USDT', fiatCurrency: 'GHS' }, size: 100 });
    expect(trades.body.total).toBe(
      await count('trades', "partner_id = $1 and country = 'GH' and crypto_currency = 'USDT' and fiat_currency = 'GHS'", [DEMO_PARTNERS.kora.id]),
    );
    expect(trades.body.data.every((r) => r.country === 'GH' && r.cryptoCurrency === 'USDT')).toBe(true);
    // local currency is case-insensitive on initiated payments
    const ip = await search('admin@kora.test', { table: 'initiate-payments', filters: { localCurrency: 'kes', status: 'complete' } });
    expect(ip.body.total).toBe(
      await count('initiated_payments', "partner_id = $1 and local_currency = 'KES' and status = 'complete'", [DEMO_PARTNERS.kora.id]),
    );
    expect(ip.body.total).toBeGreaterThan(0);
  });

  it('adds nothing for an empty filter or one outside the table set', async () => {
    const all = (await search('admin@acme.test', { table: 'settlements' })).body.total;
    expect((await search('admin@acme.test', { table: 'settlements', filters: { status: '', country: 'NG', paymentMethod: 'bank_transfer' } })).body.total).toBe(
      all,
    );
    expect((await search('admin@acme.test', { table: 'payments', filters: { requestSource: 'widget' } })).body.total).toBe(
      (await search('admin@acme.test', { table: 'payments' })).body.total,
    );
  });

  it("filters by fiat wallet only when one is chosen ('all' adds nothing)", async () => {
    const all = (await search('admin@acme.test', { table: 'payments', fiatWallet: 'all' })).body.total;
    expect(all).toBe(await count('payments', 'partner_id = $1', [ACME]));
    const ngn = await search('admin@acme.test', { table: 'payments', fiatWallet: 'NGN', size: 100 });
    expect(ngn.body.total).toBe(await count('payments', "partner_id = $1 and fiat_wallet = 'NGN'", [ACME]));
    expect(ngn.body.data.every((r) => r.fiatWallet === 'NGN')).toBe(true);
  });

  it('counts rows without a wallet as the default USD wallet (the table shows them as USD)', async () => {
    const usd = await search('admin@acme.test', { table: 'payments', fiatWallet: 'USD', size: 100 });
    const withoutWallet = await count('payments', 'partner_id = $1 and fiat_wallet is null', [ACME]);
    expect(withoutWallet).toBeGreaterThan(0);
    expect(usd.body.total).toBe(await count('payments', "partner_id = $1 and (fiat_wallet = 'USD' or fiat_wallet is null)", [ACME]));
    expect(usd.body.data.every((r) => r.fiatWallet === 'USD' || r.fiatWallet === null)).toBe(true);
    expect(usd.body.data.some((r) => r.fiatWallet === null)).toBe(true);
  });

  describe('id search', () => {
    let target: string;
    beforeAll(async () => {
      target = (await search('admin@acme.test', { table: 'collections', startIndex: 17, size: 1 })).body.data[0]!.id!;
    });

    it('finds every id starting with the digits typed, in any case', async () => {
      const prefix = target.slice(0, 3);
      const { body } = await search('admin@acme.test', { table: 'collections', idFilter: prefix.toUpperCase(), size: 100 });
      expect(body.total).toBe(await count('collections', 'partner_id = $1 and id::text like $2', [ACME, `${prefix}%`]));
      expect(body.data.every((r) => r.id!.startsWith(prefix))).toBe(true);
    });

    it('pages the matches of a 1- or 2-digit prefix newest first, as every other search (their page walks the newest-first index)', async () => {
      const busiest = await t.database.executeSql(
        'select left(id::text, 2) as p from collections where partner_id = $1 group by 1 order by count(*) desc, 1 limit 1',
        [ACME],
      );
      for (const prefix of [target.slice(0, 1), (busiest.rows[0] as { p: string }).p]) {
        const { rows } = await t.database.executeSql(
          'select id::text as id from collections where partner_id = $1 and id::text like $2 order by created_at desc, id desc limit 20',
          [ACME, `${prefix}%`],
        );
        const expected = (rows as { id: string }[]).map((r) => r.id);
        expect(expected.length, prefix).toBeGreaterThan(4);
        const size = Math.floor(expected.length / 2);
        const first = await search('admin@acme.test', { table: 'collections', idFilter: prefix, size });
        const second = await search('admin@acme.test', { table: 'collections', idFilter: prefix, startIndex: size, size });
        expect(
          [...first.body.data, ...second.body.data].map((r) => r.id),
          prefix,
        ).toEqual(expected.slice(0, 2 * size));
        expect(first.body.total, prefix).toBe(await count('collections', 'partner_id = $1 and id::text like $2', [ACME, `${prefix}%`]));
      }
    });

    it('matches all the digits typed (not only the first 8), with or without hyphens; the whole id finds exactly it', async () => {
      const mid = await search('admin@acme.test', { table: 'collections', idFilter: target.slice(0, 20) });
      expect(mid.body.data.map((r) => r.id)).toEqual([target]);
      const bare = await search('admin@acme.test', { table: 'collections', idFilter: target.replace(/-/g, '').slice(0, 14) });
      expect(bare.body.data.map((r) => r.id)).toEqual([target]);
      const exact = await search('admin@acme.test', { table: 'collections', idFilter: ` ${target.toUpperCase()} ` });
      expect(exact.body.data.map((r) => r.id)).toEqual([target]);
      const cut = await search('admin@acme.test', { table: 'collections', idFilter: `${target.slice(0, 13)}…` });
      expect(cut.body.data.map((r) => r.id)).toEqual([target]);
      const wrong = await search('admin@acme.test', { table: 'collections', idFilter: 'f'.repeat(32) });
      expect(wrong.status).toBe(200);
      expect(wrong.body.total).toBe(0);
    });

    it('finds a row of every table by the id the table shows, in the forms a person types it', async () => {
      for (const table of SEARCH_TABLES) {
        const session = table === 'trades' || table === 'initiate-payments' ? 'admin@kora.test' : 'admin@acme.test';
        const row = (await search(session, { table, startIndex: 7, size: 1 })).body.data[0]!;
        const shown = table === 'trades' ? row.tradeId! : row.id!;
        const forms =
          table === 'trades'
            ? [shown, shown.toLowerCase(), shown.slice(4), shown.slice(4).toLowerCase(), ` ${shown} `, shown.replace('-', '')]
            : [shown, shown.toUpperCase(), ` ${shown} `, shown.replace(/-/g, ''), shown.slice(0, 18)];
        for (const idFilter of forms) {
          const res = await search(session, { table, idFilter });
          expect(res.status, `${table} ${idFilter}`).toBe(200);
          expect(
            res.body.data.map((r) => r.id),
            `${table} ${idFilter}`,
          ).toEqual([row.id]);
        }
        // the first characters find it among the others that start so
        const start = table === 'trades' ? shown.slice(0, 7) : shown.slice(0, 4);
        const some = await search(session, { table, idFilter: start, size: 100 });
        expect(
          some.body.data.map((r) => r.id),
          `${table} ${start}`,
        ).toContain(row.id);
        expect(
          some.body.data.every((r) => (table === 'trades' ? r.tradeId! : r.id!).toUpperCase().startsWith(start.toUpperCase())),
          `${table} ${start}`,
        ).toBe(true);
      }
      // a trade's uuid (the partner API's id) finds it too
      const trade = (await search('admin@kora.test', { table: 'trades', size: 1 })).body.data[0]!;
      expect((await search('admin@kora.test', { table: 'trades', idFilter: trade.id })).body.data.map((r) => r.tradeId)).toEqual([trade.tradeId]);
    });

    it('refuses text that cannot be an id with 400 InvalidIdSearch and the message the portal shows, on search and scroll', async () => {
      for (const [table, idFilter] of [
        ['payments', 'hello world!'],
        ['collections', 'id: ab12'],
        ['fees', 'ab12-cd'],
        ['settlements', 'TRD-5F41110478'],
        ['trades', 'hello world!'],
        ['trades', 'TRD-XYZ'],
        ['initiate-payments', '😀'],
      ] as const) {
        const res = await search('viewer@acme.test', { table, idFilter });
        expect(res.status, `${table} ${idFilter}`).toBe(400);
        expect(res.body).toMatchObject({ code: 'InvalidIdSearch', message: idSearchMessage(table) });
      }
      const scroll = await s['admin@acme.test']!.browser.post(
        '/api/v1/transactions/scroll',
        { table: 'payments', idFilter: 'hello world!' },
        { token: s['admin@acme.test']!.accessToken },
      );
      expect(scroll.statusCode).toBe(400);
      expect(scroll.json()).toMatchObject({ code: 'InvalidIdSearch', message: idSearchMessage('payments') });
    });

    it("never finds another partner's row by the id its table shows", async () => {
      for (const table of SEARCH_TABLES) {
        const [owner, other] =
          table === 'trades' || table === 'initiate-payments' ? ['admin@kora.test', 'admin@acme.test'] : ['admin@acme.test', 'admin@kora.test'];
        const row = (await search(owner, { table, size: 1 })).body.data[0]!;
        for (const idFilter of table === 'trades' ? [row.tradeId!, row.id!] : [row.id!, row.id!.slice(0, 8)]) {
          const res = await search(other, { table, idFilter, size: 100 });
          expect(res.status, `${table} ${idFilter}`).toBe(200);
          expect(
            res.body.data.map((r) => r.id),
            `${table} ${idFilter}`,
          ).not.toContain(row.id);
        }
      }
    });

    it('is not narrowed by a date range', async () => {
      const res = await search('admin@acme.test', { table: 'collections', idFilter: target, range: { startDate: '2001-01-01', endDate: '2001-01-02' } });
      expect(res.body.data.map((r) => r.id)).toEqual([target]);
    });
  });

  it('bounds a date range from the start of the first UTC day to the end of the last, only when both ends are given', async () => {
    // in a country no generated row has, so that the filter isolates these four
    const at = async (id: string, iso: string) =>
      sql`insert into payments (partner_id, id, created_at, status, country, currency, amount, converted_amount, rate, payment_method, request_source, sequence_id, account_number, account_type, counterparty_name)
          values (${LEAN}, ${id}::uuid, ${iso}::timestamptz, 'complete', 'BW', 'BWP', '10', '1', '10', 'bank_transfer', 'api', 'S', '1', 'bank', 'T')`.execute(
        t.database.db,
      );
    await at('00000000-0000-4000-8000-000000000001', '2019-02-28T23:59:59.999Z');
    await at('00000000-0000-4000-8000-000000000002', '2019-03-01T00:00:00.000Z');
    await at('00000000-0000-4000-8000-000000000003', '2019-03-01T23:59:59.999Z');
    await at('00000000-0000-4000-8000-000000000004', '2019-03-02T00:00:00.000Z');
    const ids = [
      '00000000-0000-4000-8000-000000000004',
      '00000000-0000-4000-8000-000000000003',
      '00000000-0000-4000-8000-000000000002',
      '00000000-0000-4000-8000-000000000001',
    ];
    const inBotswana = (range: Record<string, string>) => search('admin@lean.test', { table: 'payments', filters: { country: 'BW' }, range });
    const day = await inBotswana({ startDate: '2019-03-01', endDate: '2019-03-01' });
    expect(day.body.data.map((r) => r.id)).toEqual([ids[1], ids[2]]);
    const two = await inBotswana({ startDate: '2019-02-28', endDate: '2019-03-02' });
    expect(two.body.data.map((r) => r.id)).toEqual(ids);
    // one end alone applies no bound: the rows before the start (and after the end) are still there
    const startOnly = await inBotswana({ startDate: '2019-03-01' });
    expect(startOnly.body.data.map((r) => r.id)).toEqual(ids);
    expect(startOnly.body.data.some((r) => r.createdAt! < '2019-03-01')).toBe(true);
    const endOnly = await inBotswana({ startDate: '', endDate: '2019-03-01' });
    expect(endOnly.body.data.map((r) => r.id)).toEqual(ids);
    expect(endOnly.body.data.some((r) => r.createdAt! >= '2019-03-02')).toBe(true);
  });

  it('caps the total at 10,000 as "at least", and refuses pages past the window or over 6,000 rows', async () => {
    const all = await search('admin@lean.test', { table: 'payments' });
    expect(all.body).toMatchObject({ total: 10_000, totalRelation: 'gte' });
    const filtered = await search('admin@lean.test', { table: 'payments', filters: { country: 'RW' } });
    expect(filtered.body.totalRelation).toBe('eq');
    expect(filtered.body.total).toBe(await count('payments', "partner_id = $1 and country = 'RW'", [LEAN]));
    expect((await search('admin@lean.test', { table: 'payments', startIndex: 9990, size: 10 })).status).toBe(200);
    const past = await search('admin@lean.test', { table: 'payments', startIndex: 9991, size: 10 });
    expect(past.status).toBe(400);
    expect(past.body.message).toContain('startIndex');
    expect((await search('admin@lean.test', { table: 'payments', size: 6001 })).status).toBe(400);
  });

  it('pages without repeating or skipping rows, ties broken by id', async () => {
    // five rows at the very same instant
    for (let i = 0; i < 5; i++) {
      await sql`insert into fees (partner_id, id, created_at, transaction_id, transaction_type, payment_method, amount_usd)
                values (${ACME}, ${`ffffffff-0000-4000-8000-00000000000${i}`}::uuid, '2030-01-01T00:00:00Z', gen_random_uuid(), 'payout', 'bank_transfer', '1.00')`.execute(
        t.database.db,
      );
    }
    const seen: string[] = [];
    for (let start = 0; start < 30; start += 3)
      seen.push(...(await search('admin@acme.test', { table: 'fees', startIndex: start, size: 3 })).body.data.map((r) => r.id!));
    const expected = (await t.database.executeSql('select id from fees where partner_id = $1 order by created_at desc, id desc limit 30', [ACME])).rows.map(
      (r) => (r as { id: string }).id,
    );
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(30);
  });

  describe('export scroll', () => {
    const scroll = async (email: string, body: Record<string, unknown>) => {
      const res = await s[email]!.browser.post('/api/v1/transactions/scroll', body, { token: s[email]!.accessToken });
      return { status: res.statusCode, body: res.json<{ scrollId: string | null; hits: Row[]; message?: string }>() };
    };

    it('walks a large result in batches of at most 2,500 and stops at 10,000 rows', async () => {
      let res = await scroll('admin@lean.test', { table: 'payments', scrollSize: 2500 });
      const ids = new Set<string>();
      let batches = 0;
      for (;;) {
        expect(res.status).toBe(200);
        expect(res.body.hits.length).toBeLessThanOrEqual(2500);
        for (const h of res.body.hits) ids.add(h.id!);
        batches += 1;
        if (!res.body.scrollId) break;
        res = await scroll('admin@lean.test', { table: 'payments', scrollId: res.body.scrollId, scrollSize: 2500 });
      }
      expect(ids.size).toBe(10_000);
      expect(batches).toBe(4);
      expect((await scroll('admin@lean.test', { table: 'payments', scrollSize: 2501 })).status).toBe(400);
    });

    it('keeps the filters of the first call and ends with a short batch', async () => {
      let res = await scroll('admin@acme.test', { table: 'collections', filters: { status: 'complete' }, scrollSize: 50 });
      const rows: Row[] = [...res.body.hits];
      while (res.body.scrollId) {
        res = await scroll('admin@acme.test', { table: 'collections', scrollId: res.body.scrollId, scrollSize: 50 });
        rows.push(...res.body.hits);
      }
      expect(rows.length).toBe(await count('collections', "partner_id = $1 and status = 'complete'", [ACME]));
      expect(rows.every((r) => r.status === 'complete')).toBe(true);
    });

    it('refuses a scroll id that expired, was altered, or belongs to another partner', async () => {
      const first = await scroll('admin@lean.test', { table: 'payments', scrollSize: 10 });
      const id = first.body.scrollId!;
      expect((await scroll('admin@acme.test', { table: 'payments', scrollId: id })).status).toBe(400);
      const [body, mac] = id.split('.');
      const altered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), p: ACME })).toString('base64url')}.${mac}`;
      expect((await scroll('admin@acme.test', { table: 'payments', scrollId: altered })).status).toBe(400);
      t.clock.now += 121_000;
      const late = await scroll('admin@lean.test', { table: 'payments', scrollId: id });
      expect(late.status).toBe(400);
      expect(late.body.message).toContain('expired');
    });
  });

  it('refuses a search without a token', async () => {
    const res = await browser(t.app).post('/api/v1/transactions/search', { table: 'payments' });
    expect(res.statusCode).toBe(401);
  });
});
