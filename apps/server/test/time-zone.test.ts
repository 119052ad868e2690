import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_ZONE_MESSAGE } from '@portal/contract/time-zone';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { DATABASES, browser, setup, signIn, startTestReportWorker, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;

/** Rows of known instants around day bounds: in a country no other row has, so that a filter isolates them. */
const ROWS: [string, string][] = [
  // Nairobi (UTC+3, no daylight saving): its 2026-11-16 is 2026-11-15T21:00Z to 2026-11-16T21:00Z
  ['00000000-0000-4000-8000-000000000001', '2026-11-15T20:59:59.999Z'],
  ['00000000-0000-4000-8000-000000000002', '2026-11-15T21:00:00.000Z'],
  ['00000000-0000-4000-8000-000000000003', '2026-11-16T20:59:59.999Z'],
  ['00000000-0000-4000-8000-000000000004', '2026-11-16T21:00:00.000Z'],
  // New York's 2026-11-01 is 25 hours long (EDT to EST): 2026-11-01T04:00Z to 2026-11-02T05:00Z
  ['00000000-0000-4000-8000-000000000005', '2026-11-01T03:59:59.999Z'],
  ['00000000-0000-4000-8000-000000000006', '2026-11-01T04:00:00.000Z'],
  ['00000000-0000-4000-8000-000000000007', '2026-11-02T04:30:00.000Z'],
  ['00000000-0000-4000-8000-000000000008', '2026-11-02T05:00:00.000Z'],
  // New York's 2026-03-08 is 23 hours long (EST to EDT): 2026-03-08T05:00Z to 2026-03-09T04:00Z
  ['00000000-0000-4000-8000-000000000009', '2026-03-08T04:59:59.999Z'],
  ['00000000-0000-4000-8000-000000000010', '2026-03-08T05:00:00.000Z'],
  ['00000000-0000-4000-8000-000000000011', '2026-03-09T03:59:59.999Z'],
  ['00000000-0000-4000-8000-000000000012', '2026-03-09T04:00:00.000Z'],
];
const idNo = (n: number) => ROWS[n - 1]![0];

describe.each(DATABASES)('time zones on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, jobs: true });
    for (const [id, iso] of ROWS)
      await sql`insert into payments (partner_id, id, created_at, status, country, currency, amount, converted_amount, rate, payment_method, request_source, sequence_id, account_number, account_type, counterparty_name)
          values (${ACME}, ${id}::uuid, ${iso}::timestamptz, 'complete', 'BW', 'BWP', '10', '1', '10', 'bank_transfer', 'api', 'S', '1', 'bank', 'T')`.execute(
        t.database.db,
      );
    await startTestReportWorker(t);
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const token = (email: string) => ({ token: s[email]!.accessToken });
  const preferences = async (email: string) => {
    const res = await s[email]!.browser.get('/api/v1/user/preferences', token(email));
    expect(res.statusCode).toBe(200);
    return res.json<{ timeZone: string | null }>();
  };
  const setZone = (email: string, timeZone: unknown) => s[email]!.browser.put('/api/v1/user/preferences', { timeZone }, token(email));
  const zoneOf = async (email: string) =>
    (await t.database.db.selectFrom('users').select('time_zone').where('email', '=', email).executeTakeFirstOrThrow()).time_zone;
  const audits = (partnerId: string) =>
    t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor', 'details'])
      .where('partner_id', '=', partnerId)
      .where('action', '=', 'user.time_zone_changed')
      .execute();

  describe('the user preference', () => {
    it('is UTC (null) until set, and every role sets its own, audited', async () => {
      for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
        expect(await preferences(email)).toEqual({ timeZone: null, language: null, startScreen: 'transactions' });
        const res = await setZone(email, 'Africa/Nairobi');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ timeZone: 'Africa/Nairobi', language: null, startScreen: 'transactions' });
        expect(await preferences(email)).toEqual({ timeZone: 'Africa/Nairobi', language: null, startScreen: 'transactions' });
      }
      // setting the same zone again changes and audits nothing
      await setZone('viewer@acme.test', 'Africa/Nairobi');
      const rows = await audits(ACME);
      expect(rows.map((r) => r.actor).sort()).toEqual(['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']);
      expect(rows[0]!.details).toEqual({ from: 'UTC', to: 'Africa/Nairobi' });
      // back to UTC: stored as null
      expect((await setZone('treasury@acme.test', null)).json()).toEqual({ timeZone: null, language: null, startScreen: 'transactions' });
      expect((await setZone('viewer@acme.test', 'UTC')).json()).toEqual({ timeZone: null, language: null, startScreen: 'transactions' });
      expect(await zoneOf('viewer@acme.test')).toBeNull();
      expect(await zoneOf('admin@acme.test')).toBe('Africa/Nairobi');
    });

    it('refuses a zone the server does not know with a clear message, changing nothing', async () => {
      for (const bad of ['Mars/Olympus', '', 'x'.repeat(100)]) {
        const res = await setZone('admin@acme.test', bad);
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toContain(TIME_ZONE_MESSAGE);
      }
      expect((await setZone('admin@acme.test', 42)).statusCode).toBe(400);
      expect(await zoneOf('admin@acme.test')).toBe('Africa/Nairobi');
      expect((await browser(t.app).get('/api/v1/user/preferences')).statusCode).toBe(401);
    });

    it("is one user's own: another partner's user neither reads nor changes it", async () => {
      await setZone('admin@kora.test', 'America/New_York');
      expect(await preferences('admin@kora.test')).toEqual({ timeZone: 'America/New_York', language: null, startScreen: 'transactions' });
      expect(await zoneOf('admin@acme.test')).toBe('Africa/Nairobi');
      expect((await audits(KORA)).map((r) => r.actor)).toEqual(['admin@kora.test']);
      // the body names no user: an extra field is refused rather than read
      const res = await s['admin@kora.test']!.browser.put(
        '/api/v1/user/preferences',
        { timeZone: 'UTC', userId: '00000000-0000-4000-8000-000000000000' },
        token('admin@kora.test'),
      );
      expect(res.statusCode).toBe(400);
      expect(await zoneOf('admin@acme.test')).toBe('Africa/Nairobi');
    });
  });

  describe('date ranges in a zone', () => {
    const search = async (range: { startDate: string; endDate: string }, timeZone?: string) => {
      const res = await s['viewer@acme.test']!.browser.post(
        '/api/v1/transactions/search',
        { table: 'payments', filters: { country: 'BW' }, range, size: 50, ...(timeZone ? { timeZone } : {}) },
        token('viewer@acme.test'),
      );
      expect(res.statusCode).toBe(200);
      return res.json<{ data: { id: string }[] }>().data.map((r) => r.id);
    };

    it('UTC by default: the UTC day', async () => {
      expect(await search({ startDate: '2026-11-16', endDate: '2026-11-16' })).toEqual([idNo(4), idNo(3)]);
      expect(await search({ startDate: '2026-11-16', endDate: '2026-11-16' }, 'UTC')).toEqual([idNo(4), idNo(3)]);
    });

    it("Africa/Nairobi: that zone's day, 21:00 UTC to 21:00 UTC", async () => {
      expect(await search({ startDate: '2026-11-16', endDate: '2026-11-16' }, 'Africa/Nairobi')).toEqual([idNo(3), idNo(2)]);
    });

    it('America/New_York across daylight saving changes: a 25-hour and a 23-hour day', async () => {
      expect(await search({ startDate: '2026-11-01', endDate: '2026-11-01' }, 'America/New_York')).toEqual([idNo(7), idNo(6)]);
      expect(await search({ startDate: '2026-03-08', endDate: '2026-03-08' }, 'America/New_York')).toEqual([idNo(11), idNo(10)]);
    });

    it('the scroll of an export reads the same bounds', async () => {
      const res = await s['viewer@acme.test']!.browser.post(
        '/api/v1/transactions/scroll',
        { table: 'payments', filters: { country: 'BW' }, range: { startDate: '2026-11-16', endDate: '2026-11-16' }, timeZone: 'Africa/Nairobi' },
        token('viewer@acme.test'),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json<{ hits: { id: string }[] }>().hits.map((r) => r.id)).toEqual([idNo(3), idNo(2)]);
    });

    it('refuses an unknown zone with a 400, not a 500', async () => {
      const res = await s['viewer@acme.test']!.browser.post(
        '/api/v1/transactions/search',
        { table: 'payments', range: { startDate: '2026-11-16', endDate: '2026-11-16' }, timeZone: 'Nowhere/City' },
        token('viewer@acme.test'),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(TIME_ZONE_MESSAGE);
    });
  });

  it("a report remembers the zone it was requested in: that zone's days, its times and headers naming it", async () => {
    const res = await s['admin@acme.test']!.browser.post(
      '/api/v1/report-jobs/create',
      { dataSource: 'payments', startDate: '2026-11-16', endDate: '2026-11-16', filters: { country: 'BW' }, timeZone: 'Africa/Nairobi' },
      token('admin@acme.test'),
    );
    expect(res.statusCode).toBe(200);
    const { job } = res.json<{ job: { id: string; timeZone: string } }>();
    expect(job.timeZone).toBe('Africa/Nairobi');
    let done: { status: string; downloadURL: string | null; timeZone: string } | undefined;
    await expect
      .poll(
        async () => {
          done = (await s['admin@acme.test']!.browser.get(`/api/v1/report-jobs/${job.id}`, token('admin@acme.test'))).json<{ job: typeof done }>().job;
          return done!.status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe('complete');
    expect(done!.timeZone).toBe('Africa/Nairobi');
    const file = (await s['admin@acme.test']!.browser.get(done!.downloadURL!, token('admin@acme.test'))).body.replace(/^\uFEFF/, '');
    const [header, ...lines] = file.trim().split('\r\n');
    expect(header).toContain('Created (Africa/Nairobi)');
    expect(header).not.toContain('(UTC)');
    expect(lines).toHaveLength(2);
    // 2026-11-16T20:59:59.999Z and 2026-11-15T21:00:00Z, as Nairobi's clocks read them
    expect(lines[0]).toContain('2026-11-16 23:59:59');
    expect(lines[1]).toContain('2026-11-16 00:00:00');
    // a report requested without a zone is in UTC
    const utc = await s['admin@acme.test']!.browser.post(
      '/api/v1/report-jobs/create',
      { dataSource: 'payments', startDate: '2026-11-16', endDate: '2026-11-16', filters: { country: 'BW' } },
      token('admin@acme.test'),
    );
    expect(utc.json<{ job: { timeZone: string } }>().job.timeZone).toBe('UTC');
  });
});
