import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import type { Database } from '../src/db/database.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { browser, signIn, twoInstances, type TestContext } from './harness.ts';

/**
 * Two server instances on one PostgreSQL database, as behind a load balancer: each has its own connection pool,
 * caches and cache-bus listener. Only on a PostgreSQL server (the embedded database serves one process).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two server instances on one PostgreSQL database', () => {
  let two: Awaited<ReturnType<typeof twoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let shared: Database;
  beforeAll(async () => {
    two = await twoInstances({
      config: { LOGIN_RATE_LIMIT: '4' },
      prepare: (database) =>
        generateTransactions(database.db, { partnerId: DEMO_PARTNERS.lean.id, rows: 30, seed: 'two-instances', fiatWallets: null, tables: ['payments'] }),
    });
    ({ a, b } = two);
    shared = a.database;
  });
  afterAll(async () => {
    await two?.close();
  });

  const profile = (t: TestContext, token: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${token}` } });

  it('shares the sign-in rate limit: calls on either instance count together', async () => {
    const attempt = (t: TestContext) => browser(t.app).post('/api/v1/users/login', { email: 'nobody@two.test', password: 'whatever-123' }, { ip: '127.0.0.9' });
    const answers = [await attempt(a), await attempt(b), await attempt(a), await attempt(b), await attempt(a), await attempt(b)].map((r) => r.statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await attempt(b)).json()).toMatchObject({ code: 'TooManyRequests', message: AUTH_MESSAGES.tooManyLogins });
  });

  it('refuses on the other instance, at once, the access token of a session ended on one', async () => {
    const s = await signIn(a, 'admin@kora.test');
    expect((await profile(b, s.accessToken)).statusCode).toBe(200); // b now holds the session in its cache
    expect((await s.browser.post('/api/v1/users/logout')).statusCode).toBe(200);
    const after = await profile(b, s.accessToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'SessionEnded', reason: 'logout' });
  });

  it('refuses on every instance, at once, a user made inactive', async () => {
    const s = await signIn(b, 'admin@baobab.test');
    expect((await profile(a, s.accessToken)).statusCode).toBe(200);
    await shared.db.updateTable('users').set({ status: 'inactive' }).where('email', '=', 'admin@baobab.test').execute();
    const refused = [await profile(a, s.accessToken), await profile(b, s.accessToken)];
    await shared.db.updateTable('users').set({ status: 'active' }).where('email', '=', 'admin@baobab.test').execute();
    expect(refused.map((r) => r.json<{ code: string; reason: string }>())).toEqual(
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      [1, 2].map(() => expect.objectContaining({ code: 'SessionEnded', reason: 'deactivated' })),
    );
    expect((await profile(a, s.accessToken)).statusCode).toBe(200);
  });

  it('drops a cache entry on the other instance when one invalidates it (LISTEN/NOTIFY)', async () => {
    const entries = (name: string) => {
      const map = new Map<string, number>([
        ['k1', 1],
        ['k2', 2],
      ]);
      return { map, cache: { delete: (k: string) => void map.delete(k), clear: () => map.clear() }, name };
    };
    const onA = entries('probe');
    a.app.cacheBus.attach('probe', onA.cache);
    await b.app.cacheBus.invalidate('probe', 'k1');
    await expect.poll(() => onA.map.has('k1'), { timeout: 2000, interval: 5 }).toBe(false);
    expect(onA.map.has('k2')).toBe(true);
    await b.app.cacheBus.invalidate('probe', '*');
    await expect.poll(() => onA.map.size, { timeout: 2000, interval: 5 }).toBe(0);
  });

  it("tells onDrop listeners of this instance's drops and the other's, and of every cache ('*') after a lost connection", async () => {
    const heard: string[] = [];
    const off = a.app.cacheBus.onDrop((name, key) => heard.push(`${name}|${key}`));
    try {
      await a.app.cacheBus.invalidate('session', 'local');
      expect(heard).toContain('session|local'); // at once, before the notification comes back
      await b.app.cacheBus.invalidate('user', 'p:u');
      await expect.poll(() => heard.includes('user|p:u'), { timeout: 2000, interval: 5 }).toBe(true);
      // the listening connections are cut: once back, every cache may have missed a drop
      await shared.executeSql(
        "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%portal_cache%' and pid <> pg_backend_pid()",
        [],
      );
      await expect.poll(() => ['session|*', 'user|*', 'partner|*'].every((k) => heard.includes(k)), { timeout: 5000, interval: 20 }).toBe(true);
    } finally {
      off();
    }
    const before = heard.length;
    await a.app.cacheBus.invalidate('session', 'after');
    expect(heard).toHaveLength(before);
  });

  it('continues on one instance an export scroll started on the other', async () => {
    const s = await signIn(a, 'admin@lean.test');
    const first = await s.browser.post('/api/v1/transactions/scroll', { table: 'payments', scrollSize: 10 }, { token: s.accessToken });
    expect(first.statusCode).toBe(200);
    const { scrollId, hits } = first.json<{ scrollId: string; hits: { id: string }[] }>();
    expect(hits).toHaveLength(10);
    const onB = await browser(b.app).post('/api/v1/transactions/scroll', { table: 'payments', scrollSize: 10, scrollId }, { token: s.accessToken });
    expect(onB.statusCode).toBe(200);
    const next = onB.json<{ hits: { id: string }[] }>().hits;
    expect(next).toHaveLength(10);
    expect(next.map((h) => h.id)).not.toContain(hits[0]!.id);
  });
});
