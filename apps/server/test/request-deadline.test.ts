import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTAGE_MESSAGE } from '../src/db/outage.ts';
import { DATABASES, holdDatabase, setup, signIn, type TestContext } from './harness.ts';

/**
 * No API call waits past REQUEST_DEADLINE_SECONDS (1 s here): held by the database (every table locked by another
 * transaction on the server; the one session taken on the embedded database), it is answered 503 with Retry-After,
 * and its work ends by itself once the database is back.
 */
describe.each(DATABASES)('the request deadline on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { config: { REQUEST_DEADLINE_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a call the database holds 503 with Retry-After at the deadline; once released, the same call is answered', async () => {
    const { accessToken, browser: as } = await signIn(t, 'admin@acme.test');
    const release = await holdDatabase(t.database);
    try {
      const started = performance.now();
      const held = await as.get('/api/v1/partner/accounts', { token: accessToken });
      const waited = performance.now() - started;
      expect(held.statusCode, held.body).toBe(503);
      expect(held.headers['retry-after']).toBe('5');
      expect(held.json()).toMatchObject({ code: 'ServiceUnavailable', message: OUTAGE_MESSAGE });
      // the deadline is 1 s: answered at it, not when the database comes back
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(5000);
    } finally {
      await release();
    }
    const after = await as.get('/api/v1/partner/accounts', { token: accessToken });
    expect(after.statusCode, after.body).toBe(200);
  });

  it('leaves a PDF statement alone (bounded by its entry cap and its gate): held past the deadline, it is answered once released', async () => {
    const { accessToken, browser: as } = await signIn(t, 'treasury@acme.test');
    const release = await holdDatabase(t.database);
    const pdf = as.get('/api/v1/partner/balance/statement.pdf?from=2026-01-01&to=2026-01-31', { token: accessToken });
    try {
      const early = await Promise.race([pdf.then((r) => r.statusCode), new Promise((r) => setTimeout(() => r('waiting'), 1800))]);
      expect(early).toBe('waiting');
    } finally {
      await release();
    }
    const res = await pdf;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  });
});
