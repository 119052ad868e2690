import crypto from 'node:crypto';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { findPartner } from '../src/modules/partners/partners.repository.ts';
import { DEMO_PARTNERS, DEMO_USERS, seedDemo } from '../src/db/seed/demo.ts';
import { decrypt } from '../src/lib/keys.ts';
import { MIGRATION_COUNT, migrationStatus } from '../src/db/migrate.ts';
import { DATABASES, browser, setup, type TestContext } from './harness.ts';

describe.each(DATABASES)('foundation on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, {
      // routes that exist only here, to drive the error handler through a schema failure and a real fault
      extend: (app) => {
        app.post('/api/v1/_echo', { schema: { body: z.object({ amount: z.string() }) } }, async (req) => req.body);
        app.get('/api/v1/_boom', async () => {
          throw new Error('secret detail: connection string postgres://user:pw@host');
        });
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectErrorShape = (body: string, code: string) => {
    const parsed = ErrorBody.parse(JSON.parse(body));
    expect(parsed.code).toBe(code);
    expect(parsed.requestId).toMatch(/^[0-9a-f-]{36}$/);
    return parsed;
  };

  it('answers /healthz and /readyz with current migrations', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    // ready once its LISTEN connections are up, which on a busy machine can take a few seconds after the start (a
    // balancer asks again, as this does); what it says while not ready is in the failure
    let ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    for (const until = Date.now() + 15_000; ready.statusCode !== 200 && Date.now() < until; ready = await t.app.inject({ method: 'GET', url: '/readyz' }))
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: kind, migrations: { applied: MIGRATION_COUNT, pending: 0 } });
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const body = doc.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toContain('/readyz');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    const body = expectErrorShape(res.body, 'NotFound');
    expect(body.message).toContain('/api/v1/no-such-thing');
    expect(res.headers['x-request-id']).toBe(body.requestId);
  });

  it('refuses malformed JSON with 400 MalformedJson', async () => {
    const res = await browser(t.app).post('/api/v1/_echo', '{"a":', { headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expectErrorShape(res.body, 'MalformedJson');
  });

  it('refuses a wrong content type with 415', async () => {
    const res = await browser(t.app).post('/api/v1/_echo', '<a/>', { headers: { 'content-type': 'text/xml' } });
    expect(res.statusCode).toBe(415);
    expectErrorShape(res.body, 'UnsupportedMediaType');
  });

  it('refuses an oversized body with 413', async () => {
    const res = await browser(t.app).post('/api/v1/_echo', JSON.stringify({ blob: 'x'.repeat(1_100_000) }), {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expectErrorShape(res.body, 'PayloadTooLarge');
  });

  it('refuses a body that fails its schema with 400 naming the field', async () => {
    const res = await browser(t.app).post('/api/v1/_echo', { amount: 12 });
    expect(res.statusCode).toBe(400);
    const body = expectErrorShape(res.body, 'ValidationFailed');
    expect(body.message).toMatch(/^Amount /);
    expect(body.message).not.toContain('body.');
  });

  it('hides the internals of a real failure behind a 500 with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/_boom' });
    expect(res.statusCode).toBe(500);
    const body = expectErrorShape(res.body, 'InternalError');
    expect(body.message).not.toContain('secret detail');
  });

  it('seeds the demo partners and users once, with balances from the ledger', async () => {
    const { created } = await seedDemo(t.database.db, t.keys.encryptionKey);
    expect(created).toBe(false);
    const users = await t.database.db.selectFrom('users').select(['email', 'role', 'status', 'totp_secret_enc']).execute();
    // the invited one is an invitation, not a user, until its link is used
    expect(users).toHaveLength(DEMO_USERS.filter((u) => u.status !== 'invited').length);
    expect(await t.database.db.selectFrom('invitations').select('email').execute()).toEqual(
      DEMO_USERS.filter((u) => u.status === 'invited').map((u) => ({ email: u.email })),
    );
    const admin = users.find((u) => u.email === 'admin@acme.test')!;
    expect(admin.totp_secret_enc).not.toContain('BPQYTYLSBWY2M6TIWWORONCT33ILZDWS');
    expect(decrypt(t.keys.encryptionKey, admin.totp_secret_enc!)).toBe('BPQYTYLSBWY2M6TIWWORONCT33ILZDWS');
    const balances = async (id: string) => Object.fromEntries((await t.app.services.ledger.balances(id)).map((b) => [b.currency, b.available]));
    expect((await balances(DEMO_PARTNERS.acme.id)).USD).toMatch(/^25000\.0+$/);
    expect((await balances(DEMO_PARTNERS.lean.id)).USD).toMatch(/^400\.0+$/);
    expect((await balances(DEMO_PARTNERS.kora.id)).USD).toMatch(/^5000\.0+$/);
    expect((await balances(DEMO_PARTNERS.baobab.id)).USD).toMatch(/^0(\.0+)?$/);
    const acme = await findPartner(t.database.db, DEMO_PARTNERS.acme.id);
    expect(acme?.low_balance_limit).toMatch(/^1000\.0+$/);
  });

  it('keeps e-mails unique regardless of case and keeps money exact', async () => {
    const user = (email: string) => ({
      partner_id: DEMO_PARTNERS.lean.id,
      id: crypto.randomUUID(),
      name: 'x',
      email,
      role: 'admin',
      status: 'active',
      password_hash: null,
      temp_password_hash: null,
      totp_secret_enc: null,
      totp_last_step: null,
    });
    await expect(t.database.db.insertInto('users').values(user('admin@lean.test')).execute()).rejects.toThrow();
    await expect(
      t.database.db
        .insertInto('users')
        .values({
          partner_id: DEMO_PARTNERS.lean.id,
          id: crypto.randomUUID(),
          name: 'x',
          email: 'Admin@Lean.test',
          role: 'admin',
          status: 'active',
          password_hash: null,
          totp_secret_enc: null,
          totp_last_step: null,
        })
        .execute(),
    ).rejects.toThrow();
    await t.database.db
      .insertInto('ledger_entries')
      .values({ partner_id: DEMO_PARTNERS.lean.id, currency: 'USD', amount: '0.10', kind: 'test', reference: 'a' })
      .execute();
    await t.database.db
      .insertInto('ledger_entries')
      .values({ partner_id: DEMO_PARTNERS.lean.id, currency: 'USD', amount: '0.20', kind: 'test', reference: 'b' })
      .execute();
    const usd = (await t.app.services.ledger.balances(DEMO_PARTNERS.lean.id)).find((b) => b.currency === 'USD');
    expect(usd?.available).toMatch(/^400\.30+$/);
  });

  it('reports no pending migrations after migrating', async () => {
    expect(await migrationStatus(t.database.db)).toEqual({ applied: MIGRATION_COUNT, pending: 0 });
  });
});
