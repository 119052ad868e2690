import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_API_KEYS } from '@portal/contract/api-keys';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { decrypt } from '../src/lib/keys.ts';
import { testOperator } from './operator-support.ts';
import { DATABASES, setupSignedInOverSmtp, type Session, type TestContext } from './harness.ts';
import { createKey, emailedCode } from './partner-api-client.ts';
import type { Sink } from './smtp-sink.ts';

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('API keys and allowed IP addresses, managed in the portal, on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(
      kind,
      ['admin@acme.test', 'admin2@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test', 'admin@lean.test'],
      {
        // a second B2B partner with keys and addresses enabled, for the cross-partner checks
        beforeSignIn: (ctx) => testOperator(ctx).setFeatureFlags(LEAN, { apiKeysManagementEnabled: true, whitelistedIpsEnabled: true }),
      },
    ));
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string) => s[email]!;
  const get = (email: string, url: string) => as(email).browser.get(url, { token: as(email).accessToken });
  const post = (email: string, url: string, body: unknown) => as(email).browser.post(url, body, { token: as(email).accessToken });
  const put = (email: string, url: string, body: unknown) => as(email).browser.put(url, body, { token: as(email).accessToken });
  const del = (email: string, url: string) => as(email).browser.delete(url, { token: as(email).accessToken });
  const listKeys = async (email: string) =>
    (await get(email, '/api/v1/partner/apikey')).json<{ apiKeys: { apiKey: string; name: string; status: string }[] }>().apiKeys;

  it('creates a key whose secret is shown once and kept only encrypted', async () => {
    const res = await post('admin@acme.test', '/api/v1/partner/apikey', { name: ' Payouts server ', permissions: ['api_read', 'api_write'], expiry: null });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ apiKey: Record<string, unknown> & { apiKey: string; secretKey: string; publicKey: string } }>().apiKey;
    expect(created).toMatchObject({
      partnerId: ACME,
      name: 'Payouts server',
      status: 'active',
      permissions: ['api_read', 'api_write'],
      expiry: null,
      lastUsedAt: null,
      previousSecretExpiresAt: null,
    });
    expect(created.apiKey).toMatch(/^ak_live_[0-9a-f]{32}$/);
    expect(created.secretKey).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.publicKey).toMatch(/^pk_/);
    expect(created.secretHint).toBe(created.secretKey.slice(-4));

    // never again: the list carries no secret
    const listed = await get('admin@acme.test', '/api/v1/partner/apikey');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.secretKey);
    expect(listed.json<{ apiKeys: object[] }>().apiKeys.find((k) => (k as { apiKey: string }).apiKey === created.apiKey)).not.toHaveProperty('secretKey');

    // at rest: encrypted with the server's key, not in clear anywhere in the row
    const row = await t.database.db.selectFrom('api_keys').selectAll().where('api_key', '=', created.apiKey).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secretKey.slice(3));
    expect(decrypt(t.keys.encryptionKey, row.secret_enc)).toBe(created.secretKey);

    const events = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor', 'target'])
      .where('partner_id', '=', ACME)
      .where('action', 'like', 'api_key.%')
      .execute();
    expect(events).toContainEqual({ action: 'api_key.created', actor: 'admin@acme.test', target: created.apiKey });
  });

  it('refuses a key without a name or a permission, with an unknown permission, or an expiry in the past', async () => {
    const bad = [
      { name: '', permissions: ['api_read'] },
      { name: 'k', permissions: [] },
      { name: 'k', permissions: ['admin'] },
      { name: 'k', permissions: ['api_read'], expiry: 'tomorrow' },
      { name: 'k', permissions: ['api_read'], partnerId: LEAN },
    ];
    for (const body of bad) {
      const res = await post('admin@acme.test', '/api/v1/partner/apikey', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationFailed' });
    }
    const past = await post('admin@acme.test', '/api/v1/partner/apikey', {
      name: 'k',
      permissions: ['api_read'],
      expiry: new Date(t.clock.now - 1000).toISOString(),
    });
    expect(past.json()).toMatchObject({ code: 'ValidationFailed', message: 'The expiry must be in the future.' });
  });

  it('lists keys most recently changed first, with status shown as active or disabled', async () => {
    const older = await createKey(as('admin@acme.test'), { name: 'Older', permissions: ['api_read'] });
    t.clock.now += 1000;
    const newer = await createKey(as('admin@acme.test'), { name: 'Newer', permissions: ['api_read'] });
    let names = (await listKeys('admin@acme.test')).map((k) => k.name);
    expect(names.indexOf('Newer')).toBeLessThan(names.indexOf('Older'));

    t.clock.now += 1000;
    const disabled = await put('admin@acme.test', '/api/v1/partner/apikey', { apiKey: older.apiKey, status: 'disabled' });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ apiKey: { apiKey: older.apiKey, status: 'disabled' } });
    names = (await listKeys('admin@acme.test')).map((k) => k.name);
    expect(names[0]).toBe('Older');
    expect((await put('admin@acme.test', '/api/v1/partner/apikey', { apiKey: older.apiKey, status: 'active' })).json()).toMatchObject({
      apiKey: { status: 'active' },
    });
    expect((await put('admin@acme.test', '/api/v1/partner/apikey', { apiKey: older.apiKey, status: 'paused' })).statusCode).toBe(400);

    const deleted = await del('admin@acme.test', `/api/v1/partner/apikey/${newer.apiKey}`);
    expect(deleted.statusCode).toBe(200);
    expect((await listKeys('admin@acme.test')).map((k) => k.apiKey)).not.toContain(newer.apiKey);
    expect((await del('admin@acme.test', `/api/v1/partner/apikey/${newer.apiKey}`)).statusCode).toBe(404);
  });

  it('rolls a key: a new secret once, the old one until the chosen time', async () => {
    const key = await createKey(as('admin@acme.test'), { name: 'Rolled', permissions: ['api_read'] });
    const res = await post('admin@acme.test', `/api/v1/partner/apikey/${key.apiKey}/roll`, { previousSecretMinutes: 60 });
    expect(res.statusCode).toBe(200);
    const rolled = res.json<{ apiKey: { apiKey: string; secretKey: string; previousSecretExpiresAt: string; secretHint: string } }>().apiKey;
    expect(rolled.apiKey).toBe(key.apiKey);
    expect(rolled.secretKey).not.toBe(key.secretKey);
    expect(rolled.secretHint).toBe(rolled.secretKey.slice(-4));
    expect(new Date(rolled.previousSecretExpiresAt).getTime()).toBe(t.clock.now + 3_600_000);
    const row = await t.database.db.selectFrom('api_keys').selectAll().where('api_key', '=', key.apiKey).executeTakeFirstOrThrow();
    expect(decrypt(t.keys.encryptionKey, row.previous_secret_enc!)).toBe(key.secretKey);
    expect((await post('admin@acme.test', `/api/v1/partner/apikey/${key.apiKey}/roll`, { previousSecretMinutes: 60 * 24 * 8 })).statusCode).toBe(400);
    // rolling again ends the old overlap at once
    const again = (await post('admin@acme.test', `/api/v1/partner/apikey/${key.apiKey}/roll`, {})).json<{
      apiKey: { previousSecretExpiresAt: string | null };
    }>();
    expect(again.apiKey.previousSecretExpiresAt).toBeNull();
  });

  it('limits a partner to MAX_API_KEYS keys', async () => {
    const have = (await listKeys('admin@acme.test')).length;
    for (let i = have; i < MAX_API_KEYS; i++) await createKey(as('admin@acme.test'), { name: `Bulk ${i}`, permissions: ['widget'] });
    const over = await post('admin@acme.test', '/api/v1/partner/apikey', { name: 'One too many', permissions: ['api_read'] });
    expect(over.statusCode).toBe(409);
    expect(over.json<{ message: string }>().message).toMatch(/at most 25 API keys/);
    for (const k of (await listKeys('admin@acme.test')).filter((k) => k.name.startsWith('Bulk')))
      await del('admin@acme.test', `/api/v1/partner/apikey/${k.apiKey}`);
  });

  it('lets only admins of a B2B partner with API keys enabled manage keys', async () => {
    const key = await createKey(as('admin@acme.test'), { name: 'Guarded', permissions: ['api_read'] });
    const calls = (email: string) => [
      get(email, '/api/v1/partner/apikey'),
      post(email, '/api/v1/partner/apikey', { name: 'x', permissions: ['api_read'] }),
      put(email, '/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'disabled' }),
      post(email, `/api/v1/partner/apikey/${key.apiKey}/roll`, {}),
      del(email, `/api/v1/partner/apikey/${key.apiKey}`),
    ];
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      for (const res of await Promise.all(calls(email))) expect(res.json(), email).toMatchObject({ code: 'Forbidden', message: 'Only an admin can do this.' });
    }
    // a commercial partner's admin: API keys are for B2B partners
    for (const res of await Promise.all(calls('admin@kora.test')))
      expect(res.json()).toMatchObject({ code: 'Forbidden', message: 'API keys are for business (B2B) partners.' });
    // signed out
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/apikey' })).statusCode).toBe(401);
    // nothing changed
    expect((await listKeys('admin@acme.test')).find((k) => k.apiKey === key.apiKey)).toMatchObject({ status: 'active' });
  });

  it("refuses a partner whose flag is off, and never touches another partner's key", async () => {
    const lean = await createKey(as('admin@lean.test'), { name: 'Lean key', permissions: ['api_read'] });
    expect((await listKeys('admin@acme.test')).map((k) => k.apiKey)).not.toContain(lean.apiKey);
    expect((await put('admin@acme.test', '/api/v1/partner/apikey', { apiKey: lean.apiKey, status: 'disabled' })).statusCode).toBe(404);
    expect((await post('admin@acme.test', `/api/v1/partner/apikey/${lean.apiKey}/roll`, {})).statusCode).toBe(404);
    expect((await del('admin@acme.test', `/api/v1/partner/apikey/${lean.apiKey}`)).statusCode).toBe(404);
    expect((await listKeys('admin@lean.test')).find((k) => k.apiKey === lean.apiKey)).toMatchObject({ status: 'active' });

    await testOperator(t).setFeatureFlags(LEAN, { apiKeysManagementEnabled: false });
    const off = await get('admin@lean.test', '/api/v1/partner/apikey');
    expect(off.statusCode).toBe(403);
    expect(off.json<{ message: string }>().message).toMatch(/not enabled/);
    await testOperator(t).setFeatureFlags(LEAN, { apiKeysManagementEnabled: true });
  });

  it('needs the request-forgery token for the portal calls that change keys', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/apikey',
      headers: { authorization: `Bearer ${as('admin@acme.test').accessToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'No token', permissions: ['api_read'] }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
  });

  describe('allowed IP addresses', () => {
    const listIps = async (email: string) =>
      (await get(email, '/api/v1/partner/ip-addresses')).json<{ ipAddresses: { ipAddress: string; status: string; createdBy: string }[] }>().ipAddresses;

    it('adds an address with the e-mailed code, in its canonical form, shown as whitelisted', async () => {
      expect(await listIps('admin@acme.test')).toEqual([]);
      // the code is asked for the address as typed: the server binds it to its canonical form
      const code = await emailedCode(t, as('admin@acme.test'), smtp, { action: 'ip.add', target: { ipAddress: '2001:DB8:0:0::/64' } });
      const res = await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '2001:DB8:0:0::/64', otp: code });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ ipAddress: { ipAddress: '2001:db8::/64', status: 'whitelisted', createdBy: 'admin@acme.test' } });
      expect(await listIps('admin@acme.test')).toMatchObject([{ ipAddress: '2001:db8::/64', status: 'whitelisted' }]);
      // the code is used up by the change
      const again = await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.7', otp: code });
      expect(again.json()).toMatchObject({ code: 'InvalidOtp', message: 'The code you entered is incorrect. Try again.' });
      const events = await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'target'])
        .where('partner_id', '=', ACME)
        .where('action', 'like', 'ip_address.%')
        .execute();
      expect(events).toEqual([{ action: 'ip_address.added', target: '2001:db8::/64' }]);
    });

    it('refuses a wrong or missing code, and what is not an address, adding nothing', async () => {
      const code = await emailedCode(t, as('admin@acme.test'), smtp, { action: 'ip.add', target: { ipAddress: '203.0.113.7' } });
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect((await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.7', otp: wrong })).json()).toMatchObject({
        code: 'InvalidOtp',
      });
      expect((await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.7' })).statusCode).toBe(400);
      const notAnAddress = await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.300', otp: code });
      expect(notAnAddress.statusCode).toBe(400);
      expect(notAnAddress.json<{ message: string }>().message).toContain('Enter an IPv4 or IPv6 address');
      const hostBits = await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.7/24', otp: code });
      expect(hostBits.json<{ message: string }>().message).toContain('did you mean 203.0.113.0/24?');
      expect((await listIps('admin@acme.test')).map((i) => i.ipAddress)).toEqual(['2001:db8::/64']);
    });

    it('refuses an address that is on the list already before a code is sent', async () => {
      const twice = await put('admin@acme.test', '/api/v1/user/otp', { action: 'ip.add', target: { ipAddress: '2001:db8:0::/64' } });
      expect(twice.statusCode).toBe(409);
      expect(twice.json<{ message: string }>().message).toBe('2001:db8::/64 is already on the list.');
      const code = await emailedCode(t, as('admin@acme.test'), smtp, { action: 'ip.add', target: { ipAddress: '203.0.113.7' } });
      expect((await post('admin@acme.test', '/api/v1/partner/ip-address', { ipAddress: '203.0.113.7', otp: code })).statusCode).toBe(201);
    });

    it('deletes an address with the e-mailed code', async () => {
      const code = await emailedCode(t, as('admin@acme.test'), smtp, { action: 'ip.delete', target: { ipAddress: '203.0.113.7' } });
      expect((await del('admin@acme.test', `/api/v1/partner/ip-address?ipAddress=203.0.113.7&otp=${code}`)).statusCode).toBe(200);
      expect((await listIps('admin@acme.test')).map((i) => i.ipAddress)).toEqual(['2001:db8::/64']);
      // gone: refused before a code is sent
      expect((await put('admin@acme.test', '/api/v1/user/otp', { action: 'ip.delete', target: { ipAddress: '203.0.113.7' } })).statusCode).toBe(404);
      expect((await del('admin@acme.test', `/api/v1/partner/ip-address?ipAddress=2001:db8::/64&otp=000000`)).json()).toMatchObject({ code: 'InvalidOtp' });
      expect((await del('admin@acme.test', '/api/v1/partner/ip-address?ipAddress=2001:db8::/64')).statusCode).toBe(400);
    });

    it('lets only admins with the flag on manage the list, each of its own partner', async () => {
      for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
        expect((await get(email, '/api/v1/partner/ip-addresses')).json(), email).toMatchObject({ code: 'Forbidden' });
        expect((await post(email, '/api/v1/partner/ip-address', { ipAddress: '198.51.100.1', otp: '123456' })).json()).toMatchObject({ code: 'Forbidden' });
        expect((await del(email, '/api/v1/partner/ip-address?ipAddress=2001:db8::/64&otp=123456')).json()).toMatchObject({ code: 'Forbidden' });
      }
      // Kora's flag is off
      expect((await get('admin@kora.test', '/api/v1/partner/ip-addresses')).json()).toMatchObject({
        code: 'Forbidden',
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
        message: expect.stringMatching(/not enabled/),
      });
      // Lean (flag on) has its own list; it cannot remove Acme's address
      expect(await listIps('admin@lean.test')).toEqual([]);
      expect((await put('admin@lean.test', '/api/v1/user/otp', { action: 'ip.delete', target: { ipAddress: '2001:db8::/64' } })).statusCode).toBe(404);
      // nor with a code that confirms no change
      const code = await emailedCode(t, as('admin@lean.test'), smtp, {});
      expect((await del('admin@lean.test', `/api/v1/partner/ip-address?ipAddress=2001:db8::/64&otp=${code}`)).json()).toMatchObject({
        code: 'OtpForAnotherChange',
      });
      expect((await listIps('admin@acme.test')).map((i) => i.ipAddress)).toEqual(['2001:db8::/64']);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/ip-addresses' })).statusCode).toBe(401);
    });
  });
});
