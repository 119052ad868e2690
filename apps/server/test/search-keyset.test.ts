import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchQuery } from '@portal/contract/transactions';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { searchPage } from '../src/modules/transactions/transactions.repository.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

type Row = { id: string; createdAt: string; status: string; fiatWallet: string | null };
type Page = { data: Row[]; total: number; totalRelation: string; code?: string; message?: string };

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const q = (table: SearchQuery['table'], filters: Record<string, string> = {}, fiatWallet = 'all', range: SearchQuery['range'] = {}): SearchQuery => ({
  table,
  filters,
  idFilter: '',
  range,
  fiatWallet,
});

describe.each(DATABASES)('search keyset hint on %s', (kind) => {
  let t: TestContext;
  let acme: Awaited<ReturnType<typeof signIn>>;
  let viewer: Awaited<ReturnType<typeof signIn>>;
  let treasury: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    const db = t.database.db;
    await generateTransactions(db, {
      partnerId: ACME,
      rows: 700,
      seed: 'keyset-acme',
      fiatWallets: ['USD', 'NGN', 'KES'],
      tables: ['payments', 'collections'],
    });
    await generateTransactions(db, { partnerId: KORA, rows: 300, seed: 'keyset-kora', fiatWallets: null, tables: ['payments'] });
    // rows at the same instant (ties broken by id) and rows with microseconds, which a client sees to the millisecond
    for (let i = 0; i < 6; i++) {
      await sql`insert into payments (partner_id, id, created_at, status, country, currency, amount, converted_amount, rate, payment_method, request_source,
                  fiat_wallet, sequence_id, account_number, account_type, counterparty_name)
                values (${ACME}, ${`eeeeeeee-0000-4000-8000-00000000000${i}`}::uuid, ${i < 3 ? '2026-03-01T10:00:00Z' : `2026-03-01T09:00:00.12345${i}Z`},
                  'complete', 'NG', 'NGN', '1550.00', '1.00', '1550', 'bank_transfer', 'api', 'NGN', ${`SEQ-K${i}`}, '0000000000', 'bank', 'Ties')`.execute(db);
    }
    acme = await signIn(t, 'admin@acme.test');
    viewer = await signIn(t, 'viewer@acme.test');
    treasury = await signIn(t, 'treasury@acme.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (who: typeof acme, body: Record<string, unknown>) => {
    const res = await who.browser.post('/api/v1/transactions/search', body, { token: who.accessToken });
    return { status: res.statusCode, body: res.json<Page>() };
  };
  const ids = (p: { data: Row[] }) => p.data.map((r) => r.id);

  it('gives the rows of the offset path, for Next and for Previous, with the keyset path taken', async () => {
    const queries = [
      q('payments'),
      q('payments', { status: 'complete' }),
      q('collections', { country: 'NG' }),
      q('payments', {}, 'USD'),
      q('collections', {}, 'all', { startDate: '2025-06-01', endDate: '2026-12-31' }),
      q('collections', { status: 'complete' }, 'USD'),
      q('payments', {}, 'NGN'),
    ];
    for (const query of queries) {
      const label = JSON.stringify(query);
      const { rows: all } = await searchPage(t.database.db, ACME, query, 0, 200);
      expect(all.length, label).toBeGreaterThan(40);
      for (const start of [10, 20, 30]) {
        const offset = await searchPage(t.database.db, ACME, query, start, 10);
        // Next: the last row of the page before
        const before = all[start - 1]!;
        const next = await searchPage(t.database.db, ACME, query, start, 10, { index: start - 1, createdAt: before.created_at.toISOString(), id: before.id });
        expect(next.via, label).toBe('keyset');
        expect(
          next.rows.map((r) => r.id),
          `${label} next ${start}`,
        ).toEqual(offset.rows.map((r) => r.id));
        expect(next.total).toBe(offset.total);
        // Previous: the first row of the page after
        const after = all[start + 10]!;
        const previous = await searchPage(t.database.db, ACME, query, start, 10, {
          index: start + 10,
          createdAt: after.created_at.toISOString(),
          id: after.id,
        });
        expect(previous.via, label).toBe('keyset');
        expect(
          previous.rows.map((r) => r.id),
          `${label} previous ${start}`,
        ).toEqual(offset.rows.map((r) => r.id));
        // a jump of several pages from the anchor
        const far = await searchPage(t.database.db, ACME, query, start + 20, 10, {
          index: start - 1,
          createdAt: before.created_at.toISOString(),
          id: before.id,
        });
        expect(
          far.rows.map((r) => r.id),
          `${label} far ${start}`,
        ).toEqual(all.slice(start + 20, start + 30).map((r) => r.id));
      }
    }
  });

  it('pages through ties and microsecond times from anchors given to the millisecond', async () => {
    const query = q('payments', { status: 'complete', country: 'NG' }, 'NGN', { startDate: '2026-03-01', endDate: '2026-03-01' });
    const { rows: all } = await searchPage(t.database.db, ACME, query, 0, 100);
    const ours = all.filter((r) => r.id.startsWith('eeeeeeee'));
    expect(ours).toHaveLength(6);
    for (let start = 1; start < all.length; start++) {
      const a = all[start - 1]!;
      const page = await searchPage(t.database.db, ACME, query, start, 2, { index: start - 1, createdAt: a.created_at.toISOString(), id: a.id });
      expect(page.via).toBe('keyset');
      expect(page.rows.map((r) => r.id)).toEqual(all.slice(start, start + 2).map((r) => r.id));
    }
  });

  it('exports by scroll every row of a millisecond that holds several (the cursor keeps the row exact time)', async () => {
    const body = {
      table: 'payments',
      filters: { status: 'complete', country: 'NG' },
      fiatWallet: 'NGN',
      range: { startDate: '2026-03-01', endDate: '2026-03-01' },
    };
    const { rows: expected } = await searchPage(t.database.db, ACME, q('payments', body.filters, 'NGN', body.range), 0, 100);
    const seen: string[] = [];
    let res = await acme.browser.post('/api/v1/transactions/scroll', { ...body, scrollSize: 1 }, { token: acme.accessToken });
    for (;;) {
      const batch = res.json<{ scrollId: string | null; hits: Row[] }>();
      seen.push(...batch.hits.map((r) => r.id));
      if (!batch.scrollId) break;
      res = await acme.browser.post('/api/v1/transactions/scroll', { ...body, scrollSize: 1, scrollId: batch.scrollId }, { token: acme.accessToken });
    }
    expect(seen.filter((id) => id.startsWith('eeeeeeee'))).toHaveLength(6);
    expect(seen).toEqual(expected.map((r) => r.id));
  });

  it('answers the same pages over HTTP to every role, with and without the hint', async () => {
    for (const who of [acme, treasury, viewer]) {
      const first = await search(who, { table: 'collections', filters: { status: 'complete' }, startIndex: 0, size: 10 });
      expect(first.status).toBe(200);
      const last = first.body.data.at(-1)!;
      const plain = await search(who, { table: 'collections', filters: { status: 'complete' }, startIndex: 10, size: 10 });
      const hinted = await search(who, {
        table: 'collections',
        filters: { status: 'complete' },
        startIndex: 10,
        size: 10,
        anchor: { index: 9, createdAt: last.createdAt, id: last.id },
      });
      expect(hinted.status).toBe(200);
      expect(ids(hinted.body)).toEqual(ids(plain.body));
      expect(hinted.body.total).toBe(plain.body.total);
    }
  });

  it('ignores a hint that is not a row of this search: another filter, another time, a made-up id', async () => {
    const query = q('payments', { status: 'complete' });
    const offset = await searchPage(t.database.db, ACME, query, 20, 10);
    const { rows: failed } = await searchPage(t.database.db, ACME, q('payments', { status: 'failed' }), 0, 1);
    const row = (await searchPage(t.database.db, ACME, query, 19, 1)).rows[0]!;
    const hints = [
      { index: 19, createdAt: failed[0]!.created_at.toISOString(), id: failed[0]!.id }, // a row the filter excludes
      { index: 19, createdAt: new Date(row.created_at.getTime() + 1).toISOString(), id: row.id }, // not the time shown
      { index: 19, createdAt: row.created_at.toISOString(), id: '00000000-0000-4000-8000-000000000000' }, // no such row
    ];
    for (const hint of hints) {
      const page = await searchPage(t.database.db, ACME, query, 20, 10, hint);
      expect(page.via, JSON.stringify(hint)).toBe('offset');
      expect(page.rows.map((r) => r.id)).toEqual(offset.rows.map((r) => r.id));
    }
    // a page that holds the anchor itself is read by its offset
    expect((await searchPage(t.database.db, ACME, query, 15, 10, { index: 19, createdAt: row.created_at.toISOString(), id: row.id })).via).toBe('offset');
  });

  it("never pages from another partner's row, nor shows one", async () => {
    const { rows: koraRows } = await searchPage(t.database.db, KORA, q('payments'), 0, 50);
    const kora = koraRows[20]!;
    const hint = { index: 19, createdAt: kora.created_at.toISOString(), id: kora.id };
    expect((await searchPage(t.database.db, ACME, q('payments'), 20, 10, hint)).via).toBe('offset');
    const plain = await search(acme, { table: 'payments', startIndex: 20, size: 10 });
    const foreign = await search(acme, { table: 'payments', startIndex: 20, size: 10, anchor: hint });
    expect(foreign.status).toBe(200);
    expect(ids(foreign.body)).toEqual(ids(plain.body));
    const koraIds = new Set(koraRows.map((r) => r.id));
    expect(foreign.body.data.some((r) => koraIds.has(r.id))).toBe(false);
    // and Kora's own hint pages Kora's rows
    const koraUser = await signIn(t, 'admin@kora.test');
    const own = await search(koraUser, {
      table: 'payments',
      startIndex: 20,
      size: 10,
      anchor: { index: 19, createdAt: koraRows[19]!.created_at.toISOString(), id: koraRows[19]!.id },
    });
    expect(ids(own.body)).toEqual(koraRows.slice(20, 30).map((r) => r.id));
  });

  it('refuses a malformed hint with the field named', async () => {
    const base = { table: 'payments', startIndex: 10, size: 10 };
    const good = { index: 9, createdAt: '2026-03-01T10:00:00.000Z', id: 'eeeeeeee-0000-4000-8000-000000000000' };
    for (const anchor of [
      { ...good, index: -1 },
      { ...good, index: 10_000 },
      { ...good, id: 'nope' },
      { ...good, createdAt: 'yesterday' },
      { ...good, partnerId: KORA },
      'abc',
    ]) {
      const res = await search(acme, { ...base, anchor });
      expect(res.status, JSON.stringify(anchor)).toBe(400);
      expect(res.body.code).toBe('ValidationFailed');
      expect(res.body.message).toMatch(/anchor/i);
    }
  });

  it('has the search indexes of migration 0022', async () => {
    const { rows } = await t.database.executeSql(`select indexname from pg_indexes where tablename in ('payments', 'collections') order by indexname`);
    const names = rows.map((r) => (r as { indexname: string }).indexname);
    for (const table of ['payments', 'collections']) {
      expect(names).toContain(`${table}_wallet_idx`);
    }
  });
});
