import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { buildApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { signAccessToken } from '../src/lib/tokens.ts';
import { OUTAGE_RETRY_AFTER_SECONDS, isDatabaseOutage } from '../src/db/outage.ts';
import { DATABASES, browser, memoryMailer, setup, signIn, testConfig, testKeys } from './harness.ts';

const expectOutage = (res: { statusCode: number; headers: Record<string, unknown>; json<T>(): T }) => {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
  expect(ErrorBody.parse(res.json())).toMatchObject({ code: 'ServiceUnavailable', requestId: res.headers['x-request-id'] });
};

describe.each(DATABASES)('a database outage on %s', (kind) => {
  it('answers 503 ServiceUnavailable with Retry-After once the database is closed under the app', async () => {
    const t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    try {
      const { accessToken, browser: as } = await signIn(t, 'admin@acme.test');
      const before = await as.get('/api/v1/partner/accounts', { token: accessToken });
      expect(before.statusCode).toBe(200);

      await t.database.close();

      expectOutage(await as.get('/api/v1/partner/accounts', { token: accessToken }));
      expectOutage(await as.post('/api/v1/transactions/search', { table: 'payments' }, { token: accessToken }));
      expectOutage(await as.post('/api/v1/report-jobs', {}, { token: accessToken }));
      expectOutage(await browser(t.app).post('/api/v1/users/login', { email: 'admin@acme.test', password: 'whatever-it-is' }));
    } finally {
      await t.close();
    }
  });
});

describe('a database server that refuses connections', () => {
  let app: App | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers 503 ServiceUnavailable with Retry-After, signed in or not', async () => {
    // nothing listens on port 1: every connection is refused
    database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/portal', max: 2 });
    const keys = testKeys();
    app = await buildApp({ config: testConfig(), database, keys, mailer: memoryMailer(), boss: null });
    await app.ready();
    const admin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
    const token = await signAccessToken(keys.jwtSecret, {
      sub: admin.id,
      pid: DEMO_PARTNERS.acme.id,
      role: 'admin',
      email: admin.email,
      name: admin.name,
      sid: crypto.randomUUID(),
    });
    expectOutage(await browser(app).get('/api/v1/partner/profile', { token }));
    expectOutage(await browser(app).post('/api/v1/users/login', { email: 'admin@acme.test', password: 'whatever-it-is' }));
    // the process itself is alive
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('what counts as a database outage', () => {
  const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('connection refused, reset or terminated, the server shutting down, a closed or exhausted pool, a closed embedded database, a bound of the role reached', () => {
    for (const e of [
      pgError('ECONNREFUSED'),
      pgError('ECONNRESET'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      pgError('53300', 'sorry, too many clients already'),
      // the bounds of a deployment's app role: a statement, a lock wait, an idle transaction
      pgError('57014', 'canceling statement due to statement timeout'),
      pgError('55P03', 'canceling statement due to lock timeout'),
      pgError('25P03', 'terminating connection due to idle-in-transaction timeout'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Cannot use a pool after calling end on the pool'),
      new Error('PGlite is closed'),
      new Error('driver has already been destroyed'),
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]),
      new Error('query failed', { cause: pgError('ECONNRESET') }),
    ]) {
      expect(isDatabaseOutage(e), String(e)).toBe(true);
    }
  });
  it('not a query that failed, nor a bug', () => {
    for (const e of [
      pgError('22P02', 'invalid input syntax for type uuid'),
      pgError('23505', 'duplicate key value violates unique constraint'),
      pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new Error('Connection string is wrong'),
      undefined,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseOutage(e), String(e)).toBe(false);
    }
  });
});
