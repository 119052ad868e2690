import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAIR_SHARE_MESSAGE } from '@portal/contract/errors';
import { DATABASES, holdDatabase, setup, signIn, type TestContext } from './harness.ts';

/**
 * A fair share per partner (one call at a time here, a 1 s wait): while the database holds Acme's search, Acme's next
 * one waits its turn and is answered 429 with Retry-After, and Kora's goes straight to the database beside it.
 */
describe.each(DATABASES)('a fair share of the server per partner on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { config: { FAIR_SHARE_PER_PARTNER: '1', FAIR_SHARE_WAIT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("queues a partner's calls past its share, answers 429 when the wait runs out, and never holds another partner's", async () => {
    const acme = await signIn(t, 'admin@acme.test');
    const kora = await signIn(t, 'admin@kora.test');
    const search = (who: typeof acme) => who.browser.post('/api/v1/transactions/search', { table: 'payments', size: 5 }, { token: who.accessToken });
    // the sessions read once (the embedded database caches them for a few seconds, as the held session would block them)
    expect((await search(acme)).statusCode).toBe(200);
    expect((await search(kora)).statusCode).toBe(200);

    // the payments held: a search reaches the database and waits there (on the server, only that table is locked)
    const release = await holdDatabase(t.database, ['payments']);
    let first: Promise<Awaited<ReturnType<typeof search>>>;
    let other: Promise<Awaited<ReturnType<typeof search>>>;
    try {
      first = search(acme);
      // Acme's first holds its one turn: the second waits 1 s for it, then 429
      const started = performance.now();
      other = search(kora);
      const second = await search(acme);
      expect(second.statusCode, second.body).toBe(429);
      expect(second.json()).toMatchObject({ code: 'TooManyRequests', message: FAIR_SHARE_MESSAGE });
      expect(second.headers['retry-after']).toBe('2');
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      // Kora's search was let through to the database: it waits there, not in Acme's line
      const settled = await Promise.race([other.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 200))]);
      expect(settled).toBe('waiting');
    } finally {
      await release();
    }
    expect((await first).statusCode).toBe(200);
    expect((await other).statusCode).toBe(200);
    // the turn came back: Acme searches again at once
    expect((await search(acme)).statusCode).toBe(200);
  });
});
