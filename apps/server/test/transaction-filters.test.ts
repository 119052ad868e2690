import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVERSED_RANGE_MESSAGE } from '@portal/contract/transactions';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions, TRANSACTION_TABLES } from '../src/db/seed/transactions.ts';
import { totalStatement } from '../src/modules/transactions/transactions.repository.ts';
import { DATABASES, setupSignedIn, type Session, type TestContext } from './harness.ts';

type Row = Record<string, string | null>;

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const BAOBAB = DEMO_PARTNERS.baobab.id;

describe.each(DATABASES)('transaction filters and id location on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test', 'admin@baobab.test'], {
      beforeSignIn: async ({ database: { db } }) => {
        await generateTransactions(db, { partnerId: ACME, rows: 300, seed: 'acme-filters', fiatWallets: null, tables: TRANSACTION_TABLES });
        await generateTransactions(db, { partnerId: KORA, rows: 100, seed: 'kora-filters', fiatWallets: null, tables: TRANSACTION_TABLES });
        await generateTransactions(db, { partnerId: BAOBAB, rows: 50, seed: 'baobab-filters', fiatWallets: null, tables: TRANSACTION_TABLES });
      },
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (email: string, path: string, body: Record<string, unknown>) => {
    const res = await s[email]!.browser.post(`/api/v1/transactions/${path}`, body, { token: s[email]!.accessToken });
    return { status: res.statusCode, body: res.json<{ data: Row[]; total: number; hits: Row[]; found: string[]; code?: string; message?: string }>() };
  };
  const count = async (table: string, where: string, params: unknown[] = []) => {
    const { rows } = await t.database.executeSql(`select count(*)::int as n from ${table} where ${where}`, params);
    return Number((rows[0] as { n: number }).n);
  };
  const firstId = async (table: string, partnerId: string) => {
    const { rows } = await t.database.executeSql(`select id::text as id from ${table} where partner_id = $1 order by id limit 1`, [partnerId]);
    return (rows[0] as { id: string }).id;
  };

  describe('a reversed date range', () => {
    it("is refused with 400 ReversedRange and the portal's message on search and scroll, not searched as no range", async () => {
      const range = { startDate: '2026-03-10', endDate: '2026-03-09' };
      for (const path of ['search', 'scroll']) {
        const res = await post('viewer@acme.test', path, { table: 'payments', range });
        expect(res.status, path).toBe(400);
        expect(res.body, path).toMatchObject({ code: 'ReversedRange', message: REVERSED_RANGE_MESSAGE });
      }
    });

    it('lets a one-day range and a single end through', async () => {
      expect((await post('viewer@acme.test', 'search', { table: 'payments', range: { startDate: '2026-03-10', endDate: '2026-03-10' } })).status).toBe(200);
      expect((await post('viewer@acme.test', 'search', { table: 'payments', range: { startDate: '2026-03-10', endDate: '' } })).status).toBe(200);
    });
  });

  describe('status filter', () => {
    it('takes several statuses (a group), every row in one of them, the total exact', async () => {
      const res = await post('admin@acme.test', 'search', { table: 'collections', filters: { status: 'failed,refund_failed,denied' }, size: 500 });
      expect(res.status).toBe(200);
      const expected = await count('collections', "partner_id = $1 and status in ('failed', 'refund_failed', 'denied')", [ACME]);
      expect(expected).toBeGreaterThan(0);
      expect(res.body.total).toBe(expected);
      expect(new Set(res.body.data.map((r) => r.status))).toEqual(
        new Set(['failed', 'refund_failed', 'denied'].filter((st) => res.body.data.some((r) => r.status === st))),
      );
      expect(res.body.data.every((r) => ['failed', 'refund_failed', 'denied'].includes(r.status!))).toBe(true);
    });

    it('keeps a single status (an old link) and any case', async () => {
      const one = await post('admin@acme.test', 'search', { table: 'payments', filters: { status: 'Refund_Failed' }, size: 500 });
      expect(one.body.total).toBe(await count('payments', "partner_id = $1 and status = 'refund_failed'", [ACME]));
      expect(one.body.data.every((r) => r.status === 'refund_failed')).toBe(true);
    });

    it('exports the same rows by scroll as the search finds', async () => {
      const filters = { status: 'complete,pending' };
      const searched = await post('admin@acme.test', 'search', { table: 'payments', filters, size: 500 });
      const scrolled = await post('admin@acme.test', 'scroll', { table: 'payments', filters, scrollSize: 2500 });
      expect(scrolled.body.hits.map((r) => r.id)).toEqual(searched.body.data.map((r) => r.id));
    });

    it.runIf(kind === 'postgres')('counts several statuses through the status index (EXPLAIN)', async () => {
      const db = t.database.db;
      await sql`analyze payments`.execute(db);
      const q = { table: 'payments' as const, filters: { status: 'failed,refund_failed' }, idFilter: '', range: {}, fiatWallet: 'all' };
      const statement = totalStatement(ACME, q).compile(db);
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql
          .raw<{ 'QUERY PLAN': string }>(`explain ${statement.sql.replace(/\$(\d+)/g, (_, n: string) => `'${String(statement.parameters[Number(n) - 1])}'`)}`)
          .execute(trx);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('payments_status_idx');
    });
  });

  describe('locate', () => {
    it('finds a collection id from any tab of a B2B partner, for every role', async () => {
      const id = await firstId('collections', ACME);
      for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
        const res = await post(email, 'locate', { id });
        expect(res.status, email).toBe(200);
        expect(res.body.found, email).toContain('collections');
      }
      // its first 8 characters, as the table shows them
      expect((await post('viewer@acme.test', 'locate', { id: id.slice(0, 8) })).body.found).toContain('collections');
    });

    it('finds an id nowhere when no table has it, and text that is no id nowhere', async () => {
      expect((await post('admin@acme.test', 'locate', { id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' })).body.found).toEqual([]);
      expect((await post('admin@acme.test', 'locate', { id: 'not an id' })).body).toEqual({ found: [] });
    });

    it("finds another partner's id nowhere", async () => {
      const koraPayment = await firstId('payments', KORA);
      const res = await post('admin@acme.test', 'locate', { id: koraPayment });
      expect(res.status).toBe(200);
      expect(res.body.found).toEqual([]);
    });

    it("looks only in the tables of the partner's screens: trades and initiated payments for a whitelisted commercial partner", async () => {
      const { rows } = await t.database.executeSql(`select trade_id from trades where partner_id = $1 limit 1`, [KORA]);
      const tradeId = (rows[0] as { trade_id: string }).trade_id;
      expect((await post('admin@kora.test', 'locate', { id: tradeId })).body.found).toEqual(['trades']);
      const initiated = await firstId('initiated_payments', KORA);
      expect((await post('admin@kora.test', 'locate', { id: initiated })).body.found).toContain('initiate-payments');
      // Kora's collections are no screen of Kora's: not looked in
      expect((await post('admin@kora.test', 'locate', { id: await firstId('collections', KORA) })).body.found).toEqual([]);
      // a commercial partner that is not whitelisted has trades only
      const baobabInitiated = await firstId('initiated_payments', BAOBAB);
      expect((await post('admin@baobab.test', 'locate', { id: baobabInitiated })).body.found).toEqual([]);
    });

    it('refuses a call without a token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/transactions/locate', payload: { id: 'abc' } });
      expect(res.statusCode).toBe(401);
    });
  });
});
