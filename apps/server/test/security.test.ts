import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLEMENT_STATUSES } from '@portal/contract/domain';
import { OTP_ACTIONS } from '@portal/contract/otp';
import { sessionEndMessage } from '@portal/contract/live';
import { SECURITY_KIND_ACTIONS, SECURITY_KINDS, SECURITY_MESSAGES, securityKindOf, type ActiveSession, type SecurityEvent } from '@portal/contract/security';
import { DEMO_PARTNERS, DEMO_PASSWORD, DEMO_USERS } from '../src/db/seed/demo.ts';
import { currentStep, totpCode, TOTP_PERIOD } from '../src/lib/totp.ts';
import { DATABASES, browser, setup, signIn, type Browser, type TestContext } from './harness.ts';

const ACME = DEMO_PARTNERS.acme.id;
const idOf = (email: string) => DEMO_USERS.find((u) => u.email === email)!.id;
const secretOf = (email: string) => DEMO_USERS.find((u) => u.email === email)!.totpSecret!;
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type Page = { items: SecurityEvent[]; nextCursor: string | null };

describe.each(DATABASES)('the security history and own sessions on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Awaited<ReturnType<typeof signIn>>> = {};

  /** A sign-in from a browser of its own, with a User-Agent and an address. */
  async function signInFrom(email: string, userAgent: string, ip: string) {
    const as = browser(t.app);
    const headers = { 'user-agent': userAgent };
    t.clock.now += TOTP_PERIOD * 1000;
    const login = await as.post('/api/v1/users/login', { email, password: DEMO_PASSWORD }, { headers, ip });
    expect(login.statusCode).toBe(200);
    const res = await as.post(
      '/api/v1/users/challenge-response',
      {
        session: login.json<{ session: string }>().session,
        challengeName: 'SOFTWARE_TOKEN_MFA',
        username: email,
        userCode: totpCode(secretOf(email), currentStep(t.clock.now)),
      },
      { headers, ip },
    );
    expect(res.statusCode).toBe(200);
    return { ...res.json<{ accessToken: string; refreshToken: string }>(), browser: as };
  }

  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const history = (email: string, query = '', as: Browser = s[email]!.browser, token = s[email]!.accessToken) =>
    as.get(`/api/v1/security-history${query ? `?${query}` : ''}`, { token });
  const page = async (email: string, query = '') => {
    const res = await history(email, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };

  it('records a sign-in with its address and browser, and a failed one too', async () => {
    const wrong = await browser(t.app).post(
      '/api/v1/users/login',
      { email: 'treasury@acme.test', password: 'not-the-password-1' },
      { headers: { 'user-agent': SAFARI_IPHONE }, ip: '198.51.100.9' },
    );
    expect(wrong.statusCode).toBe(401);
    await signInFrom('treasury@acme.test', CHROME_WINDOWS, '203.0.113.7');

    const { items } = await page('admin@acme.test', `person=${idOf('treasury@acme.test')}&kind=sign-in&limit=5`);
    expect(items[0]).toMatchObject({
      kind: 'sign-in',
      action: 'login.succeeded',
      ip: '203.0.113.7',
      browser: 'Chrome 131 on Windows',
      actor: { userId: idOf('treasury@acme.test'), email: 'treasury@acme.test', name: DEMO_USERS.find((u) => u.email === 'treasury@acme.test')!.name },
    });
    expect(items[1]).toMatchObject({ action: 'login.failed', ip: '198.51.100.9', browser: 'Safari 18 on iOS' });
    expect(items.every((e) => e.kind === 'sign-in' && e.actor.userId === idOf('treasury@acme.test'))).toBe(true);
  });

  it('shows admins the whole team, everyone else only their own; naming someone else is refused', async () => {
    const team = await page('admin@acme.test', 'limit=500');
    const actors = new Set(team.items.map((e) => e.actor.userId));
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) expect(actors.has(idOf(email))).toBe(true);

    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      const own = await page(email, 'limit=500');
      expect(own.items.length).toBeGreaterThan(0);
      expect(own.items.every((e) => e.actor.userId === idOf(email))).toBe(true);
      // naming themselves is the same as naming nobody
      expect((await page(email, `person=${idOf(email)}&limit=500`)).items).toEqual(own.items);
      const other = await history(email, `person=${idOf('admin@acme.test')}`);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toMatchObject({ code: 'Forbidden', message: SECURITY_MESSAGES.ownOnly });
    }
  });

  it("never shows another partner's rows, even to an admin naming one of its members", async () => {
    const kora = await page('admin@kora.test', 'limit=500');
    expect(kora.items.length).toBeGreaterThan(0);
    const acmeIds = new Set(DEMO_USERS.filter((u) => u.partner === 'acme').map((u) => u.id));
    expect(kora.items.some((e) => e.actor.userId && acmeIds.has(e.actor.userId))).toBe(false);
    const rows = await t.database.db.selectFrom('audit_events').select('id').where('partner_id', '=', ACME).execute();
    const koraIds = new Set(kora.items.map((e) => e.id));
    expect(rows.some((r) => koraIds.has(r.id))).toBe(false);
    // Kora's admin naming Acme's admin reads nothing of Acme
    expect((await page('admin@kora.test', `person=${idOf('admin@acme.test')}`)).items).toEqual([]);
    // and Acme's admin never reads Kora's
    expect((await page('admin@acme.test', `person=${idOf('admin@kora.test')}`)).items).toEqual([]);
  });

  it('filters by kind and by calendar days in a time zone, and pages without a gap or a repeat', async () => {
    // rows of known times, two of them in the same millisecond
    const at = (iso: string) => new Date(iso);
    await t.database.db
      .insertInto('audit_events')
      .values([
        {
          partner_id: ACME,
          actor_user_id: idOf('viewer@acme.test'),
          actor: 'viewer@acme.test',
          action: 'api_key.created',
          created_at: at('2026-03-01T22:30:00.000Z'),
          details: '{"name":"Shop"}',
        },
        {
          partner_id: ACME,
          actor_user_id: idOf('viewer@acme.test'),
          actor: 'viewer@acme.test',
          action: 'webhook.created',
          created_at: at('2026-03-02T09:00:00.000Z'),
          details: '{}',
        },
        {
          partner_id: ACME,
          actor_user_id: idOf('viewer@acme.test'),
          actor: 'viewer@acme.test',
          action: 'webhook.deleted',
          created_at: at('2026-03-02T09:00:00.000Z'),
          details: '{}',
        },
        {
          partner_id: ACME,
          actor_user_id: idOf('viewer@acme.test'),
          actor: 'viewer@acme.test',
          action: 'user.time_zone_changed',
          created_at: at('2026-03-03T12:00:00.000Z'),
          details: '{}',
        },
      ])
      .execute();
    // 2026-03-02 in Nairobi (UTC+3) starts at 03-01 21:00 UTC: the 22:30 row is on it
    const nairobi = await page('viewer@acme.test', 'from=2026-03-02&to=2026-03-02&timeZone=Africa/Nairobi');
    expect(nairobi.items.map((e) => e.action).sort()).toEqual(['api_key.created', 'webhook.created', 'webhook.deleted']);
    const utc = await page('viewer@acme.test', 'from=2026-03-02&to=2026-03-02');
    expect(utc.items.map((e) => e.action).sort()).toEqual(['webhook.created', 'webhook.deleted']);
    const hooks = await page('viewer@acme.test', 'kind=webhooks&from=2026-03-01&to=2026-03-03');
    expect(hooks.items.every((e) => e.kind === 'webhooks')).toBe(true);
    expect(hooks.items).toHaveLength(2);
    const settings = await page('viewer@acme.test', 'kind=settings&from=2026-03-01&to=2026-03-03');
    expect(settings.items.map((e) => e.action)).toEqual(['user.time_zone_changed']);

    // one row a page: every row once, in order, the two of one millisecond included
    const seen: SecurityEvent[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const next: Page = await page('viewer@acme.test', `from=2026-03-01&to=2026-03-03&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.items);
      cursor = next.nextCursor;
    }
    const all = await page('viewer@acme.test', 'from=2026-03-01&to=2026-03-03');
    expect(seen.map((e) => e.id)).toEqual(all.items.map((e) => e.id));
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((e) => e.id)).size).toBe(4);
  });

  it('refuses bad input with a clear error, never a 500', async () => {
    const cases: [string, number, string][] = [
      ['from=2026-02-30', 400, 'ValidationFailed'],
      ['from=2026-03-05&to=2026-03-01', 400, 'ReversedRange'],
      ['kind=everything', 400, 'ValidationFailed'],
      ['person=not-a-uuid', 400, 'ValidationFailed'],
      ['limit=0', 400, 'ValidationFailed'],
      ['limit=501', 400, 'ValidationFailed'],
      ['timeZone=Mars/Olympus', 400, 'ValidationFailed'],
      ['cursor=bm90LWEtY3Vyc29y', 400, 'InvalidCursor'],
      [`cursor=${Buffer.from('2026-13-45T99:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`, 400, 'InvalidCursor'],
      ['unknown=1', 400, 'ValidationFailed'],
    ];
    for (const [query, status, code] of cases) {
      const res = await history('admin@acme.test', query);
      expect(res.statusCode, query).toBe(status);
      expect(res.json<{ code: string }>().code, query).toBe(code);
    }
    expect((await browser(t.app).get('/api/v1/security-history')).statusCode).toBe(401);
  });

  it('puts every action the server writes in a kind that names it (none falls through)', () => {
    // every 'family.name' literal of the server that is not a column (alias or table), a file, or an e-mailed code's purpose
    const schema = fs.readFileSync(path.resolve(import.meta.dirname, '../src/db/schema.ts'), 'utf8');
    const tables = new Set([...schema.matchAll(/^ {2}([a-z_]+): [A-Z]\w+Table;/gm)].map((m) => m[1]!));
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
    const written = new Set<string>(['logout', ...SETTLEMENT_STATUSES.map((st) => `settlement.${st}`)]);
    for (const file of walk(path.resolve(import.meta.dirname, '../src')))
      for (const [, family, name] of fs.readFileSync(file, 'utf8').matchAll(/'([a-z_]+)\.([a-z_]+)'/g))
        if (family!.length > 2 && !tables.has(family!) && family !== 'excluded' && !/^(html|json|internal)$/.test(name!)) written.add(`${family}.${name}`);
    const actions = [...written].filter((a) => !(OTP_ACTIONS as readonly string[]).includes(a));
    expect(actions.length).toBeGreaterThan(40);
    const unnamed = actions.filter((a) => {
      const named = SECURITY_KINDS.filter(
        (k) => SECURITY_KIND_ACTIONS[k].actions.includes(a) || SECURITY_KIND_ACTIONS[k].prefixes.some((p) => a.startsWith(p)),
      );
      return named.length !== 1;
    });
    expect(unnamed).toEqual([]);
    expect(securityKindOf('settlement.pending')).toBe('withdrawals');
    expect(securityKindOf('settlement_wallet.approved')).toBe('wallets');
  });

  describe('own sessions', () => {
    const sessions = async (who: { browser: Browser; accessToken: string }) => {
      const res = await who.browser.get('/api/v1/me/sessions', { token: who.accessToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ sessions: ActiveSession[] }>().sessions;
    };

    it('lists each open session with its browser and address, marks the current one, and ends another at once', async () => {
      const laptop = await signInFrom('viewer@acme.test', CHROME_WINDOWS, '203.0.113.20');
      const phone = await signInFrom('viewer@acme.test', SAFARI_IPHONE, '198.51.100.21');
      const listed = await sessions(laptop);
      const current = listed.filter((x) => x.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ browser: 'Chrome 131 on Windows', ip: '203.0.113.20' });
      const phoneRow = listed.find((x) => x.browser === 'Safari 18 on iOS' && x.ip === '198.51.100.21')!;
      expect(phoneRow).toBeDefined();
      expect(phoneRow.current).toBe(false);
      // nobody else's session is listed
      const others = await t.database.db.selectFrom('auth_sessions').select('id').where('user_id', '!=', idOf('viewer@acme.test')).execute();
      expect(listed.some((x) => others.some((o) => o.id === x.id))).toBe(false);

      const end = await laptop.browser.delete(`/api/v1/me/sessions/${phoneRow.id}`, { token: laptop.accessToken });
      expect(end.statusCode, end.body).toBe(200);
      // the phone's access token and refresh token stop at once, saying why
      const call = await phone.browser.get('/api/v1/me/sessions', { token: phone.accessToken });
      expect(call.statusCode).toBe(401);
      expect(call.json()).toMatchObject({ code: 'SessionEnded', reason: 'ended-remotely', message: sessionEndMessage('ended-remotely') });
      const refresh = await phone.browser.post('/api/v1/users/refresh', { refreshToken: phone.refreshToken });
      expect(refresh.statusCode).toBe(401);
      expect(refresh.json()).toMatchObject({ code: 'SessionEnded', reason: 'ended-remotely' });
      expect((await sessions(laptop)).some((x) => x.id === phoneRow.id)).toBe(false);
      // the laptop goes on, and the history says what happened
      const { items } = await page('admin@acme.test', `person=${idOf('viewer@acme.test')}&kind=sessions&limit=1`);
      expect(items[0]).toMatchObject({ action: 'session.ended', target: phoneRow.id, details: { browser: 'Safari 18 on iOS' } });
    });

    it('refuses to end the current session, an ended one, a teammate’s or another partner’s', async () => {
      const viewer = s['viewer@acme.test']!;
      const [mine] = (await sessions(viewer)).filter((x) => x.current);
      const self = await viewer.browser.delete(`/api/v1/me/sessions/${mine!.id}`, { token: viewer.accessToken });
      expect(self.statusCode).toBe(409);
      expect(self.json()).toMatchObject({ code: 'CurrentSession', message: SECURITY_MESSAGES.currentSession });

      for (const owner of ['admin@acme.test', 'admin@kora.test']) {
        const [theirs] = (await sessions(s[owner]!)).filter((x) => x.current);
        for (const who of ['viewer@acme.test', owner === 'admin@acme.test' ? 'admin@kora.test' : 'admin@acme.test']) {
          const res = await s[who]!.browser.delete(`/api/v1/me/sessions/${theirs!.id}`, { token: s[who]!.accessToken });
          expect(res.statusCode, `${who} ends ${owner}'s`).toBe(404);
          expect(res.json()).toMatchObject({ code: 'SessionNotFound', message: SECURITY_MESSAGES.sessionNotFound });
        }
        // still open
        expect((await s[owner]!.browser.get('/api/v1/me/sessions', { token: s[owner]!.accessToken })).statusCode).toBe(200);
      }
      const bad = await viewer.browser.delete('/api/v1/me/sessions/not-a-uuid', { token: viewer.accessToken });
      expect(bad.statusCode).toBe(400);
    });

    it('ends a session once when two requests end it together', async () => {
      const keep = await signInFrom('treasury@acme.test', CHROME_WINDOWS, '203.0.113.30');
      await signInFrom('treasury@acme.test', SAFARI_IPHONE, '203.0.113.31');
      const target = (await sessions(keep)).find((x) => x.ip === '203.0.113.31')!;
      const results = await Promise.all([0, 1, 2].map(() => keep.browser.delete(`/api/v1/me/sessions/${target.id}`, { token: keep.accessToken })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404, 404]);
      const audits = await t.database.db
        .selectFrom('audit_events')
        .select('id')
        .where('partner_id', '=', ACME)
        .where('action', '=', 'session.ended')
        .where('target', '=', target.id)
        .execute();
      expect(audits).toHaveLength(1);
    });

    it('keeps when each session was last seen: a refresh moves it on', async () => {
      const who = await signInFrom('admin@kora.test', CHROME_WINDOWS, '203.0.113.40');
      const before = (await sessions(who)).find((x) => x.current)!;
      t.clock.now += 60_000;
      const refreshed = await who.browser.post('/api/v1/users/refresh', { refreshToken: who.refreshToken }, { ip: '203.0.113.41' });
      expect(refreshed.statusCode).toBe(200);
      const after = (await sessions({ browser: who.browser, accessToken: refreshed.json<{ accessToken: string }>().accessToken })).find((x) => x.current)!;
      expect(after.id).toBe(before.id);
      expect(Date.parse(after.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
      expect(after.ip).toBe('203.0.113.41');
      expect(after.createdAt).toBe(before.createdAt);
    });
  });
});
