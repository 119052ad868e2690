import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_KEY_MESSAGES, IDEMPOTENCY_HOURS } from '@portal/contract/api-keys';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { operatorService } from './operator-support.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';
import { createKey, signedCall, type KeyPair } from './partner-api-client.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('Idempotency-Key on the POSTs of the partner API on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  let key: KeyPair;
  let leanKey: KeyPair;
  /** every time the test route's handler ran, by its body's reference */
  const runs: string[] = [];
  beforeAll(async () => {
    t = await setup(kind, {
      config: { LOGIN_RATE_LIMIT: '10000' },
      // a partner-API write that takes a while and counts its runs: what must never run twice
      extend: (app) =>
        void app.register(
          async (api) => {
            api.addHook('onRequest', app.authenticate);
            api.post(
              '/test/payouts',
              { config: { apiKey: 'api_write' }, schema: { body: z.object({ reference: z.string(), amount: z.string().regex(/^\d+$/) }).strict() } },
              async (request, reply) => {
                const body = request.body as { reference: string; amount: string };
                runs.push(body.reference);
                await new Promise((r) => setTimeout(r, 150));
                if (body.reference.startsWith('boom')) throw new Error('the processor failed');
                if (body.reference.startsWith('refused'))
                  return reply.code(409).send({ code: 'Conflict', message: 'refused by the rules', requestId: request.id });
                return reply.code(201).send({ id: crypto.randomUUID(), reference: body.reference, amount: body.amount });
              },
            );
          },
          { prefix: '/api/v1' },
        ),
    });
    await operatorService({ db: t.database.db, live: t.app.liveBus, mailer: t.mailer, publicUrl: 'http://portal.test' }).setFeatureFlags(LEAN, {
      apiKeysManagementEnabled: true,
    });
    for (const email of ['admin@acme.test', 'admin@lean.test']) s[email] = await signIn(t, email);
    key = await createKey(s['admin@acme.test']!, { name: 'Payouts', permissions: ['api_read', 'api_write'] });
    leanKey = await createKey(s['admin@lean.test']!, { name: 'Lean payouts', permissions: ['api_write'] });
  });
  afterAll(async () => t?.close());

  const payout = (body: object, idempotencyKey?: string, as: KeyPair = key) =>
    signedCall(t.app, as, 'POST', '/api/v1/test/payouts', { body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });
  const ran = (reference: string) => runs.filter((r) => r === reference).length;

  it('replays the first reply to a repeated request: same status, same body, nothing run twice', async () => {
    const first = await payout({ reference: 'p-1', amount: '100' }, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await payout({ reference: 'p-1', amount: '100' }, 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // the same body written in another key order is the same request
    const reordered = await signedCall(t.app, key, 'POST', '/api/v1/test/payouts', {
      raw: '{"amount":"100","reference":"p-1"}',
      headers: { 'idempotency-key': 'key-1' },
    });
    expect(reordered.json()).toEqual(first.json());
    expect(ran('p-1')).toBe(1);
    // without a key, each request runs
    await payout({ reference: 'p-2', amount: '5' });
    await payout({ reference: 'p-2', amount: '5' });
    expect(ran('p-2')).toBe(2);
  });

  it('refuses the key with another request (422), whatever differs', async () => {
    await payout({ reference: 'p-3', amount: '100' }, 'key-3');
    const other = await payout({ reference: 'p-3', amount: '101' }, 'key-3');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IdempotencyKeyReused', message: API_KEY_MESSAGES.idempotencyReused });
    const elsewhere = await signedCall(t.app, key, 'POST', '/api/v1/partner/addresses', {
      body: { currency: 'USDT', network: 'TRC20' },
      headers: { 'idempotency-key': 'key-3' },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(ran('p-3')).toBe(1);
  });

  it('never runs two parallel requests with one key', async () => {
    const burst = await Promise.all(Array.from({ length: 8 }, () => payout({ reference: 'p-4', amount: '7' }, 'key-4')));
    expect(ran('p-4')).toBe(1);
    expect(burst.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const firsts = burst.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(firsts).toHaveLength(1);
    for (const busy of burst.filter((r) => r.statusCode === 409)) expect(busy.json()).toMatchObject({ code: 'IdempotencyKeyInProgress' });
    // once done, a retry gets the first reply
    const retry = await payout({ reference: 'p-4', amount: '7' }, 'key-4');
    expect(retry.json()).toEqual(firsts[0]!.json());
    expect(ran('p-4')).toBe(1);
  });

  it('keeps a refusal as the reply too, but gives the key back after a server failure', async () => {
    expect((await payout({ reference: 'refused-1', amount: '1' }, 'key-5')).statusCode).toBe(409);
    const replayed = await payout({ reference: 'refused-1', amount: '1' }, 'key-5');
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(ran('refused-1')).toBe(1);

    expect((await payout({ reference: 'boom-1', amount: '1' }, 'key-6')).statusCode).toBe(500);
    expect((await payout({ reference: 'boom-1', amount: '1' }, 'key-6')).statusCode).toBe(500);
    expect(ran('boom-1')).toBe(2);
  });

  it('claims nothing for a request refused before it runs (validation, signature)', async () => {
    const invalid = await payout({ reference: 'p-7', amount: 'ten' }, 'key-7');
    expect(invalid.statusCode).toBe(400);
    const forged = await signedCall(t.app, key, 'POST', '/api/v1/test/payouts', {
      body: { reference: 'p-7', amount: '10' },
      headers: { 'idempotency-key': 'key-7' },
      sign: { body: '{}' },
    });
    expect(forged.statusCode).toBe(401);
    expect((await payout({ reference: 'p-7', amount: '10' }, 'key-7')).statusCode).toBe(201);
    expect(ran('p-7')).toBe(1);
  });

  it(`keeps a reply ${IDEMPOTENCY_HOURS} hours`, async () => {
    const first = await payout({ reference: 'p-8', amount: '1' }, 'key-8');
    t.clock.now += IDEMPOTENCY_HOURS * 3_600_000 - 60_000;
    expect((await payout({ reference: 'p-8', amount: '1' }, 'key-8')).json()).toEqual(first.json());
    t.clock.now += 60_000;
    const later = await payout({ reference: 'p-8', amount: '1' }, 'key-8');
    expect(later.statusCode).toBe(201);
    expect(later.json()).not.toEqual(first.json());
    expect(ran('p-8')).toBe(2);
  });

  it("keeps each partner's keys apart, and one partner's users and API keys share them", async () => {
    const acme = await payout({ reference: 'p-9', amount: '1' }, 'shared-key');
    const lean = await payout({ reference: 'p-9', amount: '1' }, 'shared-key', leanKey);
    expect(lean.statusCode).toBe(201);
    expect(lean.json()).not.toEqual(acme.json());
    const admin = s['admin@acme.test']!;
    const byUser = await admin.browser.post(
      '/api/v1/test/payouts',
      { reference: 'p-9', amount: '1' },
      { token: admin.accessToken, headers: { 'idempotency-key': 'shared-key' } },
    );
    expect(byUser.json()).toEqual(acme.json());
    expect(ran('p-9')).toBe(2);
  });

  it('refuses a malformed key, and ignores the header on reads', async () => {
    for (const bad of ['x'.repeat(256), 'has space', 'naïve']) {
      const res = await payout({ reference: 'p-10', amount: '1' }, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ message: API_KEY_MESSAGES.idempotencyKeyInvalid });
    }
    expect(ran('p-10')).toBe(0);
    const read = await signedCall(t.app, key, 'GET', '/api/v1/partner/accounts', { headers: { 'idempotency-key': 'key-1' } });
    expect(read.statusCode).toBe(200);
  });

  it('replays a real write of the partner API (a deposit address) with its first status', async () => {
    const first = await signedCall(t.app, key, 'POST', '/api/v1/partner/addresses', {
      body: { currency: 'USDT', network: 'POLYGON' },
      headers: { 'idempotency-key': 'address-1' },
    });
    expect(first.statusCode).toBe(201);
    const again = await signedCall(t.app, key, 'POST', '/api/v1/partner/addresses', {
      body: { currency: 'USDT', network: 'POLYGON' },
      headers: { 'idempotency-key': 'address-1' },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const rows = await t.database.db
      .selectFrom('deposit_addresses')
      .select('id')
      .where('partner_id', '=', DEMO_PARTNERS.acme.id)
      .where('currency_network', '=', 'usdt-polygon')
      .execute();
    expect(rows).toHaveLength(1);
  });
});
