import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES } from '@portal/contract/api-keys';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { operatorService } from './operator-support.ts';
import { DATABASES, setup, signIn, twoInstances, type TestContext } from './harness.ts';
import { createKey, signedCall, type KeyPair } from './partner-api-client.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
const LIMIT = 5;
const WINDOW_SECONDS = 60;

const limitHeaders = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: Number(res.headers['x-ratelimit-reset']),
});

describe.each(DATABASES)('the per-key rate limit of the partner API on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  let first: KeyPair;
  let second: KeyPair;
  let lean: KeyPair;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000', API_KEY_RATE_LIMIT: String(LIMIT), API_KEY_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
    await operatorService({ db: t.database.db, live: t.app.liveBus, mailer: t.mailer, publicUrl: 'http://portal.test' }).setFeatureFlags(
      DEMO_PARTNERS.lean.id,
      { apiKeysManagementEnabled: true },
    );
    for (const email of ['admin@acme.test', 'admin@lean.test']) s[email] = await signIn(t, email);
    first = await createKey(s['admin@acme.test']!, { name: 'Limited', permissions: ['api_read'] });
    second = await createKey(s['admin@acme.test']!, { name: 'Same partner', permissions: ['api_read'] });
    lean = await createKey(s['admin@lean.test']!, { name: 'Other partner', permissions: ['api_read'] });
  });
  afterAll(async () => t?.close());

  const read = (key: KeyPair) => signedCall(t.app, key, 'GET', '/api/v1/partner/profile');

  it('counts each call in the headers, refuses the one past the limit with 429 and Retry-After, and resets with the window', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await read(first);
      expect(res.statusCode).toBe(200);
      expect(limitHeaders(res)).toMatchObject({ limit: String(LIMIT), remaining: String(LIMIT - i) });
      expect(limitHeaders(res).reset).toBeGreaterThan(0);
      expect(limitHeaders(res).reset).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
    t.clock.now += 20_000;
    const refused = await read(first);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(WINDOW_SECONDS - 20 - 5);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS - 20);
    expect(limitHeaders(refused)).toEqual({ limit: String(LIMIT), remaining: '0', reset: retryAfter });
    expect(refused.json()).toEqual({
      code: 'TooManyRequests',
      message: API_KEY_MESSAGES.rateLimited(LIMIT, WINDOW_SECONDS, retryAfter),
      requestId: refused.headers['x-request-id'],
    });
    expect((await read(first)).statusCode).toBe(429);

    // another key of the same partner, and another partner's key, have their own counts
    const same = await read(second);
    expect(same.statusCode).toBe(200);
    expect(limitHeaders(same).remaining).toBe(String(LIMIT - 1));
    const other = await read(lean);
    expect(other.statusCode).toBe(200);
    expect(limitHeaders(other).remaining).toBe(String(LIMIT - 1));

    // the portal's own calls (a session) are not limited and carry no such headers
    const admin = s['admin@acme.test']!;
    for (let i = 0; i < LIMIT + 2; i++) {
      const portal = await admin.browser.get('/api/v1/partner/profile', { token: admin.accessToken });
      expect(portal.statusCode).toBe(200);
      expect(portal.headers['x-ratelimit-limit']).toBeUndefined();
    }

    // a new window: the key works again
    t.clock.now += WINDOW_SECONDS * 1000;
    const again = await read(first);
    expect(again.statusCode).toBe(200);
    expect(limitHeaders(again).remaining).toBe(String(LIMIT - 1));
  });

  it('holds under calls sent at the same moment', async () => {
    t.clock.now += WINDOW_SECONDS * 1000;
    const key = await createKey(s['admin@acme.test']!, { name: 'Parallel', permissions: ['api_read'] });
    const statuses = (await Promise.all(Array.from({ length: LIMIT + 4 }, () => read(key)))).map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((c) => c === 429)).toHaveLength(4);
  });

  it('does not count calls refused before the key is verified', async () => {
    t.clock.now += WINDOW_SECONDS * 1000;
    for (let i = 0; i < LIMIT + 2; i++) {
      const forged = await signedCall(t.app, second, 'GET', '/api/v1/partner/profile', { sign: { secret: 'not-the-secret' } });
      expect(forged.statusCode).toBe(401);
    }
    expect(limitHeaders(await read(second)).remaining).toBe(String(LIMIT - 1));
  });
});

/** The counters are in the database: instances behind a load balancer share one limit per key. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the per-key rate limit on two server instances', () => {
  const LIMIT_TWO = 200; // each instance takes a share of 4 calls at a time from the shared counter
  let two: Awaited<ReturnType<typeof twoInstances>>;
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    two = await twoInstances({ config: { LOGIN_RATE_LIMIT: '10000', API_KEY_RATE_LIMIT: String(LIMIT_TWO), API_KEY_RATE_WINDOW_SECONDS: '60' } });
    ({ a, b } = two);
  });
  afterAll(async () => two?.close());

  it('serves at most the limit across both instances, and refuses on both once it is spent', async () => {
    const admin = await signIn(a, 'admin@acme.test');
    const key = await createKey(admin, { name: 'Behind a balancer', permissions: ['api_read'] });
    const statuses: number[] = [];
    // alternate the instances, as a load balancer would, for well past the limit
    for (let i = 0; i < LIMIT_TWO + 40; i++) {
      const res = await signedCall(i % 2 === 0 ? a.app : b.app, key, 'GET', '/api/v1/partner/profile');
      statuses.push(res.statusCode);
    }
    const served = statuses.filter((c) => c === 200).length;
    expect(statuses.filter((c) => c !== 200 && c !== 429)).toEqual([]);
    // never more than the limit; a share held and unspent by one instance may be lost (at most 4 per instance)
    expect(served).toBeLessThanOrEqual(LIMIT_TWO);
    expect(served).toBeGreaterThanOrEqual(LIMIT_TWO - 2 * 4);
    expect((await signedCall(a.app, key, 'GET', '/api/v1/partner/profile')).statusCode).toBe(429);
    expect((await signedCall(b.app, key, 'GET', '/api/v1/partner/profile')).statusCode).toBe(429);
    // one instance alone would have served the whole limit: with a counter per instance, 2 × 200 would pass
    a.clock.now += 61_000;
    expect((await signedCall(b.app, key, 'GET', '/api/v1/partner/profile')).statusCode).toBe(200);
  });
});
