import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CACHE_MS } from '../src/lib/constants.ts';
import { signIn, twoInstances, type TestContext } from './harness.ts';
import { createKey, signedCall } from './partner-api-client.ts';

/**
 * Decrypted keys and allowed-address lists are cached per instance: a change made through one instance must hold on
 * the other well before the cache's time-to-live (through the cache bus). Only on a PostgreSQL server.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('API keys on two server instances', () => {
  let two: Awaited<ReturnType<typeof twoInstances>>;
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    two = await twoInstances({ config: { LOGIN_RATE_LIMIT: '10000' } });
    ({ a, b } = two);
  });
  afterAll(async () => two?.close());

  const withinCache = { timeout: AUTH_CACHE_MS / 2, interval: 20 };

  it('refuses on the other instance, well before its cache runs out, a key disabled, rolled or deleted on one', async () => {
    const admin = await signIn(a, 'admin@acme.test');
    const key = await createKey(admin, { name: 'Two instances', permissions: ['api_read'] });
    const onB = () => signedCall(b.app, key, 'GET', '/api/v1/partner/accounts').then((r) => r.statusCode);
    expect(await onB()).toBe(200); // b now holds the key in its cache
    await admin.browser.put('/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'disabled' }, { token: admin.accessToken });
    await expect.poll(onB, withinCache).toBe(401);
    await admin.browser.put('/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'active' }, { token: admin.accessToken });
    await expect.poll(onB, withinCache).toBe(200);
    await admin.browser.post(`/api/v1/partner/apikey/${key.apiKey}/roll`, { previousSecretMinutes: 0 }, { token: admin.accessToken });
    await expect.poll(onB, withinCache).toBe(401);
  });

  it('applies on the other instance an allowed address added on one', async () => {
    const admin = await signIn(a, 'admin2@acme.test');
    const key = await createKey(admin, { name: 'Addresses', permissions: ['api_read'] });
    const onB = () => signedCall(b.app, key, 'GET', '/api/v1/partner/accounts', { ip: '198.51.100.1' }).then((r) => r.statusCode);
    expect(await onB()).toBe(200); // b now holds the (empty) list in its cache
    expect(
      (await admin.browser.put('/api/v1/user/otp', { action: 'ip.add', target: { ipAddress: '203.0.113.0/24' } }, { token: admin.accessToken })).statusCode,
    ).toBe(200);
    const code = /verification code is (\d{6})/.exec(a.mailer.sent.at(-1)!.text)![1]!;
    expect((await admin.browser.post('/api/v1/partner/ip-address', { ipAddress: '203.0.113.0/24', otp: code }, { token: admin.accessToken })).statusCode).toBe(
      201,
    );
    await expect.poll(onB, withinCache).toBe(403);
  });
});
