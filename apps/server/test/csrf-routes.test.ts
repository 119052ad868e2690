import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, signIn, type TestContext } from './harness.ts';

/**
 * The POST routes that change nothing (a search sent as a POST for its body), marked `readOnly`: they alone go without
 * a request-forgery token. Marking another route so drops its check: this list is where that is decided, in a review.
 */
const READS_SENT_AS_POST = ['POST /api/v1/transactions/search', 'POST /api/v1/transactions/scroll', 'POST /api/v1/transactions/locate'];
/** The route that hands out the token (it cannot ask for one). */
const ISSUES_THE_TOKEN = 'POST /api/v1/security/csrf';
const CHANGES = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A convention a newcomer cannot see, as a test: every route the server declares that changes something asks for the
 * request-forgery token, from a signed-in browser (a valid bearer, no token: 403 CsrfTokenInvalid, before anything
 * else runs), except the named reads above.
 */
describe('every change asks for the request-forgery token', () => {
  let t: TestContext;
  let bearer: string;
  beforeAll(async () => {
    t = await setup('pglite', { config: { LOGIN_RATE_LIMIT: '1000' } });
    bearer = (await signIn(t, 'admin@acme.test')).accessToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  const changes = () => t.app.declaredRoutes.filter((r) => CHANGES.includes(r.method));
  // a path with its parameters filled in (any value: the check comes before the route looks at them)
  const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

  it('the routes marked readOnly are the named reads, and every other change is an API route', () => {
    const all = changes().map((r) => `${r.method} ${r.url}`);
    expect(all.length).toBeGreaterThan(50);
    expect(
      changes()
        .filter((r) => r.readOnly)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([...READS_SENT_AS_POST].sort());
    expect(all.filter((r) => !r.split(' ')[1]!.startsWith('/api/'))).toEqual([]);
  });

  it('a change sent by a signed-in browser without the token is refused with 403 CsrfTokenInvalid, on every route', async () => {
    const letThrough: string[] = [];
    for (const r of changes()) {
      const name = `${r.method} ${r.url}`;
      if (READS_SENT_AS_POST.includes(name) || name === ISSUES_THE_TOKEN) continue;
      const res = await t.app.inject({
        method: r.method as 'POST',
        url: concrete(r.url),
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: '{}',
      });
      if (res.statusCode !== 403 || res.json<{ code?: string }>().code !== 'CsrfTokenInvalid')
        letThrough.push(`${name}: ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(letThrough).toEqual([]);
  });

  it('the named reads and the token route answer without one', async () => {
    for (const name of [...READS_SENT_AS_POST, ISSUES_THE_TOKEN]) {
      const [method, url] = name.split(' ');
      const res = await t.app.inject({
        method: method as 'POST',
        url: url!,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: url!.endsWith('/locate') ? '{"id":"abc"}' : url!.endsWith('/csrf') ? '{}' : '{"table":"payments"}',
      });
      expect(res.statusCode, `${name}: ${res.body.slice(0, 120)}`).toBe(200);
    }
  });
});
