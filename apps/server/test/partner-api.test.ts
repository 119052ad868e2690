import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES, SIGNATURE_WINDOW_SECONDS } from '@portal/contract/api-keys';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { decrypt, encrypt } from '../src/lib/keys.ts';
import { LAST_USED_EVERY_MS } from '../src/plugins/api-key-auth.ts';
import { testOperator } from './operator-support.ts';
import { DATABASES, browser, setup, setupSignedInOverSmtp, type Session, type TestContext } from './harness.ts';
import { createKey, emailedCode, signedCall, type KeyPair } from './partner-api-client.ts';
import type { Sink } from './smtp-sink.ts';

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('the partner API with API keys (HMAC) on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;
  let readKey: KeyPair;
  let writeKey: KeyPair;
  let bothKey: KeyPair;
  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(kind, ['admin@acme.test', 'admin@lean.test'], {
      transactions: true,
      beforeSignIn: (ctx) => testOperator(ctx).setFeatureFlags(LEAN, { apiKeysManagementEnabled: true, whitelistedIpsEnabled: true }),
    }));
    readKey = await createKey(s['admin@acme.test']!, { name: 'Reader', permissions: ['api_read'] });
    writeKey = await createKey(s['admin@acme.test']!, { name: 'Writer', permissions: ['api_write'] });
    bothKey = await createKey(s['admin@acme.test']!, { name: 'Both', permissions: ['api_read', 'api_write'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const admin = () => s['admin@acme.test']!;
  const call = (key: KeyPair, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: Parameters<typeof signedCall>[4]) =>
    signedCall(t.app, key, method, url, options);
  const portal = (url: string) => admin().browser.get(url, { token: admin().accessToken });

  it('answers a signed read as it answers the signed-in user of the same partner', async () => {
    const signed = await call(readKey, 'GET', '/api/v1/partner/accounts');
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual((await portal('/api/v1/partner/accounts')).json());
    expect(signed.json()).toMatchObject({ partner: { id: ACME } });
    // the profile: the same partner and flags; the user only for a signed-in user (a key has none)
    const profile = await call(readKey, 'GET', '/api/v1/partner/profile');
    expect(profile.statusCode, profile.body).toBe(200);
    const { user, ...shared } = (await portal('/api/v1/partner/profile')).json<{ user?: { email: string } }>();
    expect(user).toMatchObject({ email: 'admin@acme.test', role: 'admin', partnerId: ACME, status: 'active' });
    expect(profile.json()).toEqual(shared);
    const search = await call(readKey, 'POST', '/api/v1/transactions/search', { body: { table: 'payments', size: 3 } });
    expect(search.statusCode, search.body).toBe(200);
    const page = search.json<{ table: string; data: { id: string }[]; total: number }>();
    expect(page.data).toHaveLength(3);
    // a single transaction by id, the partner's only
    const one = await call(readKey, 'GET', `/api/v1/transactions/payments/${page.data[0]!.id}`);
    expect(one.json()).toMatchObject({ table: 'payments', data: { id: page.data[0]!.id } });
    expect((await call(readKey, 'GET', '/api/v1/transactions/payments/0a5e0000-0000-4000-8000-00000000dead')).statusCode).toBe(404);
    // with a query string, signed as sent
    const address = await call(readKey, 'GET', '/api/v1/partner/address?currencyNetwork=usdt-trc20');
    expect(address.statusCode, address.body).toBe(200);
    // the reference data a script needs: channels and payment networks
    const channels = await call(readKey, 'GET', '/api/v1/channels');
    expect(channels.statusCode, channels.body).toBe(200);
    expect(channels.json()).toEqual((await portal('/api/v1/channels')).json());
    expect((await call(readKey, 'GET', '/api/v1/networks')).statusCode).toBe(200);
  });

  it('refuses a tampered request: another body, path, query, method, timestamp or secret', async () => {
    const body = { table: 'payments', size: 3 };
    const tampered = [
      call(readKey, 'POST', '/api/v1/transactions/search', { body, sign: { body: JSON.stringify({ table: 'payments', size: 4 }) } }),
      call(readKey, 'POST', '/api/v1/transactions/search', { body, sign: { path: '/api/v1/transactions/scroll' } }),
      call(readKey, 'GET', '/api/v1/partner/address?currencyNetwork=usdt-trc20', { sign: { path: '/api/v1/partner/address?currencyNetwork=usdc-erc20' } }),
      call(readKey, 'GET', '/api/v1/partner/accounts', { sign: { method: 'POST' } }),
      call(readKey, 'GET', '/api/v1/partner/accounts', { sign: { timestamp: String(Math.floor(t.clock.now / 1000) - 1) } }),
      call(readKey, 'GET', '/api/v1/partner/accounts', { sign: { secret: bothKey.secretKey } }),
      // the body sent differs from the one signed by one space
      call(readKey, 'POST', '/api/v1/transactions/search', { raw: '{"table": "payments","size":3}', sign: { body: '{"table":"payments","size":3}' } }),
    ];
    for (const res of await Promise.all(tampered)) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ code: 'ApiKeySignatureInvalid', message: API_KEY_MESSAGES.badSignature });
    }
    const garbage = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partner/accounts',
      headers: { 'x-api-key': readKey.apiKey, 'x-api-timestamp': String(Math.floor(t.clock.now / 1000)), 'x-api-signature': 'not-hex' },
    });
    expect(garbage.json()).toMatchObject({ code: 'ApiKeySignatureInvalid' });
  });

  it(`refuses a timestamp more than ${SIGNATURE_WINDOW_SECONDS} s away, either side`, async () => {
    const now = Math.floor(t.clock.now / 1000);
    for (const timestamp of [now - SIGNATURE_WINDOW_SECONDS - 1, now + SIGNATURE_WINDOW_SECONDS + 1]) {
      const res = await call(readKey, 'GET', '/api/v1/partner/accounts', { timestamp });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'ApiKeyTimestampInvalid', message: API_KEY_MESSAGES.staleTimestamp });
    }
    for (const timestamp of [now - SIGNATURE_WINDOW_SECONDS + 1, now + SIGNATURE_WINDOW_SECONDS - 1]) {
      expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { timestamp })).statusCode).toBe(200);
    }
    expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { headers: { 'x-api-timestamp': `${now}.5` } })).json()).toMatchObject({
      code: 'ApiKeyTimestampInvalid',
    });
  });

  it('refuses an unknown key, missing headers, and a key with a bearer token', async () => {
    const unknown = await call({ apiKey: `ak_${'0'.repeat(32)}`, secretKey: readKey.secretKey }, 'GET', '/api/v1/partner/accounts');
    expect(unknown.json()).toMatchObject({ code: 'ApiKeyInvalid', message: API_KEY_MESSAGES.unknownKey });
    expect((await call({ apiKey: 'sk_wrong', secretKey: readKey.secretKey }, 'GET', '/api/v1/partner/accounts')).json()).toMatchObject({
      code: 'ApiKeyInvalid',
    });
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/partner/accounts', headers: { 'x-api-key': readKey.apiKey } });
    expect(missing.json()).toMatchObject({ code: 'ApiKeyInvalid', message: API_KEY_MESSAGES.missingHeaders });
    const both = await call(readKey, 'GET', '/api/v1/partner/accounts', { headers: { authorization: `Bearer ${admin().accessToken}` } });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ message: API_KEY_MESSAGES.bothSchemes });
  });

  it('refuses API keys on the routes that are not part of the partner API', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/v1/partner/apikey', undefined],
      ['POST', '/api/v1/partner/apikey', { name: 'made by a key', permissions: ['api_read'] }],
      ['POST', '/api/v1/partner/low-balance-limit', { lowBalanceLimit: '5' }],
      ['PUT', '/api/v1/user/otp', {}],
    ] as const) {
      const res = await call(bothKey, method, url, { body });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ message: API_KEY_MESSAGES.notAccepted });
    }
    // nothing was changed by them
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
    expect((await portal('/api/v1/partner/profile')).json()).toMatchObject({ partner: { lowBalanceLimit: expect.not.stringMatching(/^5(\.0+)?$/) } });
  });

  it('enforces the permissions: api_read to read, api_write to change', async () => {
    const write = await call(readKey, 'POST', '/api/v1/partner/addresses', { body: { currency: 'USDC', network: 'SOL' } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'ApiKeyPermissionDenied', message: API_KEY_MESSAGES.permission('api_write') });
    const read = await call(writeKey, 'GET', '/api/v1/partner/accounts');
    expect(read.json()).toMatchObject({ code: 'ApiKeyPermissionDenied', message: API_KEY_MESSAGES.permission('api_read') });
    const widget = await createKey(admin(), { name: 'Widget only', permissions: ['widget'] });
    expect((await call(widget, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(403);
    expect((await call(widget, 'POST', '/api/v1/transactions/search', { body: { table: 'payments' } })).statusCode).toBe(403);
    // the address list offers assignment to a key that may write, not to a reader
    expect((await call(readKey, 'GET', '/api/v1/partner/addresses')).json<{ assignable: string[] }>().assignable).toEqual([]);
    const assignable = (await call(bothKey, 'GET', '/api/v1/partner/addresses')).json<{ assignable: string[] }>().assignable;
    expect(assignable).toContain('pyusd-erc20');
    const assigned = await call(writeKey, 'POST', '/api/v1/partner/addresses', { body: { currency: 'PYUSD', network: 'ERC20' } });
    expect(assigned.statusCode, assigned.body).toBe(201);
    // the key is recorded as the actor
    const event = await t.database.db
      .selectFrom('audit_events')
      .select(['actor', 'actor_user_id'])
      .where('action', '=', 'deposit_address.assigned')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ actor: `api key ${writeKey.apiKey}`, actor_user_id: null });
  });

  it('refuses a disabled key at once, and a deleted one', async () => {
    const key = await createKey(admin(), { name: 'Soon disabled', permissions: ['api_read'] });
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200); // now cached
    await admin().browser.put('/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'disabled' }, { token: admin().accessToken });
    const disabled = await call(key, 'GET', '/api/v1/partner/accounts');
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json()).toMatchObject({ code: 'ApiKeyDisabled', message: API_KEY_MESSAGES.disabled });
    await admin().browser.put('/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'active' }, { token: admin().accessToken });
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    await admin().browser.delete(`/api/v1/partner/apikey/${key.apiKey}`, { token: admin().accessToken });
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).json()).toMatchObject({ code: 'ApiKeyInvalid' });
  });

  it('refuses an expired key with a clear message', async () => {
    const expiry = new Date(t.clock.now + 3_600_000).toISOString();
    const key = await createKey(admin(), { name: 'Short lived', permissions: ['api_read'], expiry });
    expect(key).toMatchObject({ expiry, expired: false });
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    t.clock.now += 3_600_000;
    const expired = await call(key, 'GET', '/api/v1/partner/accounts');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'ApiKeyExpired', message: API_KEY_MESSAGES.expired(expiry) });
    expect(expired.json<{ message: string }>().message).toMatch(/^This API key expired on .+\. Create a new key/);
    const listed = (await portal('/api/v1/partner/apikey'))
      .json<{ apiKeys: { apiKey: string; expired: boolean; expiry: string }[] }>()
      .apiKeys.find((k) => k.apiKey === key.apiKey);
    expect(listed).toMatchObject({ expired: true, expiry });
  });

  it('keeps the old secret of a rolled key until the chosen time, and the new one at once', async () => {
    const key = await createKey(admin(), { name: 'To roll', permissions: ['api_read'] });
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    const rolled = (
      await admin().browser.post(`/api/v1/partner/apikey/${key.apiKey}/roll`, { previousSecretMinutes: 60 }, { token: admin().accessToken })
    ).json<{ apiKey: KeyPair }>().apiKey;
    expect((await call(rolled, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    t.clock.now += 60 * 60_000;
    expect((await call(key, 'GET', '/api/v1/partner/accounts')).json()).toMatchObject({ code: 'ApiKeySignatureInvalid' });
    expect((await call(rolled, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    // rolled with no overlap, the old secret stops at once
    const now = (await admin().browser.post(`/api/v1/partner/apikey/${key.apiKey}/roll`, { previousSecretMinutes: 0 }, { token: admin().accessToken })).json<{
      apiKey: KeyPair;
    }>().apiKey;
    expect((await call(rolled, 'GET', '/api/v1/partner/accounts')).json()).toMatchObject({ code: 'ApiKeySignatureInvalid' });
    expect((await call(now, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
  });

  it('records when a key was last used, at most once a minute', async () => {
    const key = await createKey(admin(), { name: 'Usage', permissions: ['api_read'] });
    const lastUsed = async () =>
      (await admin().browser.get('/api/v1/partner/apikey', { token: admin().accessToken }))
        .json<{ apiKeys: { apiKey: string; lastUsedAt: string | null }[] }>()
        .apiKeys.find((k) => k.apiKey === key.apiKey)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const first = t.clock.now;
    await call(key, 'GET', '/api/v1/partner/accounts');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    t.clock.now += 30_000;
    await call(key, 'GET', '/api/v1/partner/accounts');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    t.clock.now += LAST_USED_EVERY_MS;
    await call(key, 'GET', '/api/v1/partner/accounts');
    expect(await lastUsed()).toBe(new Date(t.clock.now).toISOString());
  });

  it("answers each key with its own partner's data only", async () => {
    const lean = await createKey(s['admin@lean.test']!, { name: 'Lean reader', permissions: ['api_read'] });
    expect((await call(lean, 'GET', '/api/v1/partner/accounts')).json()).toMatchObject({ partner: { id: LEAN } });
    const acmePayment = (await call(readKey, 'POST', '/api/v1/transactions/search', { body: { table: 'payments', size: 1 } })).json<{
      data: { id: string }[];
    }>().data[0]!.id;
    expect((await call(lean, 'GET', `/api/v1/transactions/payments/${acmePayment}`)).statusCode).toBe(404);
    const leanSearch = (await call(lean, 'POST', '/api/v1/transactions/search', { body: { table: 'payments', idFilter: acmePayment } })).json<{
      total: number;
    }>();
    expect(leanSearch.total).toBe(0);
  });

  it('refuses the keys of a partner whose API access is switched off', async () => {
    const lean = await createKey(s['admin@lean.test']!, { name: 'Lean switched off', permissions: ['api_read'] });
    const operator = testOperator(t);
    await operator.setFeatureFlags(LEAN, { apiKeysManagementEnabled: false });
    const res = await call(lean, 'GET', '/api/v1/partner/accounts');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: API_KEY_MESSAGES.partnerNotEnabled });
    await operator.setFeatureFlags(LEAN, { apiKeysManagementEnabled: true });
  });

  it('needs no request-forgery token with a valid key, and a forged or invalid key gets nothing past it', async () => {
    // no cookie, no token: a signed write goes through
    const res = await call(writeKey, 'POST', '/api/v1/partner/addresses', { body: { currency: 'USDT', network: 'TRC20' } });
    expect([200, 201]).toContain(res.statusCode);
    // the same write with a wrong signature is refused before it runs; and a bearer call still needs its token
    expect(
      (await call(writeKey, 'POST', '/api/v1/partner/addresses', { body: { currency: 'USDT', network: 'POLYGON' }, sign: { secret: readKey.secretKey } }))
        .statusCode,
    ).toBe(401);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/addresses',
      headers: { authorization: `Bearer ${admin().accessToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ currency: 'USDT', network: 'POLYGON' }),
    });
    expect(noToken.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
    // a browser sending only some of the key headers is not let past the token check
    const partial = await browser(t.app).post(
      '/api/v1/partner/addresses',
      { currency: 'USDT', network: 'POLYGON' },
      { token: admin().accessToken, headers: { 'x-api-key': writeKey.apiKey } },
    );
    expect(partial.json()).toMatchObject({ code: 'ApiKeyInvalid', message: API_KEY_MESSAGES.missingHeaders });
    const addresses = (await portal('/api/v1/partner/addresses')).json<{ addresses: { currencyNetwork: string }[] }>().addresses.map((a) => a.currencyNetwork);
    expect(addresses).not.toContain('usdt-polygon');
  });

  describe('allowed IP addresses', () => {
    const addIp = async (ipAddress: string) => {
      const code = await emailedCode(t, admin(), smtp, { action: 'ip.add', target: { ipAddress } });
      const res = await admin().browser.post('/api/v1/partner/ip-address', { ipAddress, otp: code }, { token: admin().accessToken });
      expect(res.statusCode, res.body).toBe(201);
    };
    const removeIp = async (ipAddress: string) => {
      const code = await emailedCode(t, admin(), smtp, { action: 'ip.delete', target: { ipAddress } });
      expect(
        (await admin().browser.delete(`/api/v1/partner/ip-address?ipAddress=${encodeURIComponent(ipAddress)}&otp=${code}`, { token: admin().accessToken }))
          .statusCode,
      ).toBe(200);
    };

    it('allows any address while the list is empty, and only listed ones after', async () => {
      expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.20' })).statusCode).toBe(200);
      await addIp('203.0.113.0/24');
      await addIp('2001:db8::7');
      const refused = await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.20' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'IpAddressNotAllowed', message: API_KEY_MESSAGES.ipNotAllowed('198.51.100.20') });
      expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '127.0.0.1' })).json()).toMatchObject({ code: 'IpAddressNotAllowed' });
      for (const ip of ['203.0.113.1', '203.0.113.254', '::ffff:203.0.113.9', '2001:db8::7']) {
        expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip })).statusCode, ip).toBe(200);
      }
      for (const ip of ['203.0.114.1', '2001:db8::8']) expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip })).statusCode, ip).toBe(403);
      // the portal (a signed-in user) is not restricted by the list
      expect((await admin().browser.get('/api/v1/partner/accounts', { token: admin().accessToken, ip: '198.51.100.20' })).statusCode).toBe(200);
      // another partner's keys are not restricted by Acme's list
      const lean = await createKey(s['admin@lean.test']!, { name: 'Lean anywhere', permissions: ['api_read'] });
      expect((await call(lean, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.20' })).statusCode).toBe(200);
      await removeIp('203.0.113.0/24');
      expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '203.0.113.1' })).statusCode).toBe(403);
      await removeIp('2001:db8::7');
      expect((await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.20' })).statusCode).toBe(200);
    });

    it('believes X-Forwarded-For only from a configured trusted proxy', async () => {
      await addIp('203.0.113.0/24');
      const forwarded = { 'x-forwarded-for': '203.0.113.5' };
      // this app trusts no proxy: the socket's address counts
      const untrusted = await call(readKey, 'GET', '/api/v1/partner/accounts', { ip: '10.0.0.1', headers: forwarded });
      expect(untrusted.json()).toMatchObject({ code: 'IpAddressNotAllowed', message: API_KEY_MESSAGES.ipNotAllowed('10.0.0.1') });

      const proxied = await setup(kind, { config: { TRUST_PROXY: '10.0.0.1', LOGIN_RATE_LIMIT: '10000' } });
      try {
        // the same key on the second app (its own encryption key)
        const row = await t.database.db.selectFrom('api_keys').selectAll().where('api_key', '=', readKey.apiKey).executeTakeFirstOrThrow();
        const secretEnc = encrypt(proxied.keys.encryptionKey, decrypt(t.keys.encryptionKey, row.secret_enc));
        await proxied.database.db
          .insertInto('api_keys')
          .values({ ...row, secret_enc: secretEnc, previous_secret_enc: null, previous_secret_expires_at: null })
          .execute();
        await proxied.database.db
          .insertInto('allowed_ip_addresses')
          .values({ partner_id: ACME, ip_address: '203.0.113.0/24', created_by: null, created_by_email: null })
          .execute();
        const viaProxy = await signedCall(proxied.app, readKey, 'GET', '/api/v1/partner/accounts', { ip: '10.0.0.1', headers: forwarded });
        expect(viaProxy.statusCode, viaProxy.body).toBe(200);
        // a client claiming the address itself, not through the proxy, is seen as what it is
        const spoofed = await signedCall(proxied.app, readKey, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.7', headers: forwarded });
        expect(spoofed.json()).toMatchObject({ code: 'IpAddressNotAllowed', message: API_KEY_MESSAGES.ipNotAllowed('198.51.100.7') });
      } finally {
        await proxied.close();
      }
      await removeIp('203.0.113.0/24');
    });
  });
});
