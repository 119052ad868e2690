import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartPart, StartResponse } from '@portal/contract/start';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

/** The call each part of the start data stands for. */
const OWN_CALLS: Record<StartPart, string> = {
  profile: '/api/v1/partner/profile',
  accounts: '/api/v1/partner/accounts',
  rates: '/api/v1/partner/rates',
  wallets: '/api/v1/partner/wallets',
  fiatWallets: '/api/v1/partner/fiat-wallets',
  preferences: '/api/v1/user/preferences',
  notifications: '/api/v1/notifications',
};
const USERS = ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test', 'admin@baobab.test', 'admin@lean.test'];
const cookiesOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe.each(DATABASES)('the start data (GET partner/start) on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { transactions: true, config: { LOGIN_RATE_LIMIT: '10000' } });
    for (const email of USERS) s[email] = await signIn(t, email);
    // a wallet of Acme's waiting for review: the review banners' data (the seed has none)
    await t.database.db
      .insertInto('settlement_wallets')
      .values({
        partner_id: DEMO_PARTNERS.acme.id,
        id: '5e7a0000-0000-4000-8000-00000000beef',
        address: 'TXYZ1234567890abcdefghijklmnopqrstu',
        network: 'TRC20',
        tag: null,
        currencies: ['USDT'],
        status: 'pending_approval',
        travel_rule_name: null,
        travel_rule_registration_number: null,
        created_by: s['treasury@acme.test']!.user.id,
        created_by_name: 'Acme treasury',
        reviewed_by: null,
        reviewed_by_name: null,
        reviewed_at: null,
        denial_reason: null,
        deletion_reason: null,
        deleted_by: null,
        deleted_at: null,
        screened_at: null,
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });
  const start = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/v1/partner/start', headers: { authorization: `Bearer ${s[email]!.accessToken}`, ...headers } });

  it.each(USERS)('gives %s each part as its own call answers it, and null where that call refuses', async (email) => {
    const res = await start(email);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json<StartResponse>();
    const refused: string[] = [];
    for (const [part, url] of Object.entries(OWN_CALLS) as [StartPart, string][]) {
      const own = await s[email]!.browser.get(url, { token: s[email]!.accessToken });
      if (own.statusCode === 403) {
        refused.push(part);
        expect(data[part], `${part} for ${email}`).toBeNull();
      } else {
        expect(own.statusCode, `${url}: ${own.body}`).toBe(200);
        expect(data[part], `${part} for ${email}`).toEqual(own.json());
      }
    }
    expect(data.profile.user?.email).toBe(email);
    // the rules of the calls hold: enabled countries are for B2B partners with the flag (Acme has it; Kora, Baobab
    // and Lean Pay do not), and only for the roles the rates call serves
    if (email.endsWith('@kora.test') || email.endsWith('@baobab.test') || email.endsWith('@lean.test')) expect(refused).toContain('rates');
    if (email === 'admin@acme.test') expect(refused).toEqual([]);
  });

  it("holds the caller's own partner only: nothing of another partner's", async () => {
    const acme = (await start('admin@acme.test')).json<StartResponse>();
    const kora = (await start('admin@kora.test')).json<StartResponse>();
    expect(acme.profile.partner.id).toBe(DEMO_PARTNERS.acme.id);
    expect(acme.accounts?.partner.id).toBe(DEMO_PARTNERS.acme.id);
    expect(kora.profile.partner.id).toBe(DEMO_PARTNERS.kora.id);
    expect(kora.accounts?.partner.id).toBe(DEMO_PARTNERS.kora.id);
    const koraText = JSON.stringify(kora);
    expect(koraText).not.toContain(DEMO_PARTNERS.acme.id);
    for (const wallet of acme.wallets?.wallets ?? []) expect(koraText).not.toContain(wallet.id);
    expect(acme.wallets?.wallets.length).toBeGreaterThan(0);
    // a partner id asked for in the address changes nothing: the partner is the token's
    const asked = await t.app.inject({
      method: 'GET',
      url: `/api/v1/partner/start?partnerId=${DEMO_PARTNERS.acme.id}`,
      headers: { authorization: `Bearer ${s['admin@kora.test']!.accessToken}` },
    });
    expect(asked.statusCode === 400 || !asked.body.includes(DEMO_PARTNERS.acme.id), asked.body).toBe(true);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/partner/start' });
    expect(res.statusCode).toBe(401);
  });

  it("brings a request-forgery token for this session: a change goes with it and its cookie; another session's is refused", async () => {
    const res = await start('treasury@acme.test');
    const { csrf } = res.json<StartResponse>();
    const cookie = cookiesOf(res);
    expect(cookie).toContain('portal_csrf=');
    const change = (email: string, token: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/preferences',
        headers: { authorization: `Bearer ${s[email]!.accessToken}`, cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
        payload: JSON.stringify({ timeZone: null }),
      });
    const ok = await change('treasury@acme.test', csrf);
    expect(ok.statusCode, ok.body).toBe(200);
    // the same pair with another user's bearer (another session): refused
    const other = await change('viewer@acme.test', csrf);
    expect(other.statusCode).toBe(403);
    expect(other.json<{ code: string }>().code).toBe('CsrfTokenInvalid');
    // and without the token at all
    const none = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/preferences',
      headers: { authorization: `Bearer ${s['treasury@acme.test']!.accessToken}`, cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ timeZone: null }),
    });
    expect(none.statusCode).toBe(403);
  });

  it('lets a search (a read sent as a POST) go without a request-forgery token, beside the start call; changes still need one', async () => {
    const token = s['admin@acme.test']!.accessToken;
    const post = (url: string, body: unknown) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const [startRes, search, locate] = await Promise.all([
      start('admin@acme.test'),
      post('/api/v1/transactions/search', { table: 'payments', filters: {}, idFilter: '', range: {}, fiatWallet: 'all', startIndex: 0, size: 10 }),
      post('/api/v1/transactions/locate', { id: '0000' }),
    ]);
    expect(startRes.statusCode).toBe(200);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json<{ data: unknown[] }>().data.length).toBe(10);
    expect(locate.statusCode, locate.body).toBe(200);
    // a change without a token is refused as before
    const change = await post('/api/v1/notifications/read', { all: true });
    expect(change.statusCode).toBe(403);
    expect(change.json<{ code: string }>().code).toBe('CsrfTokenInvalid');
  });
});
