import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@portal/contract/webhooks';
import { SANDBOX_PATHS, type Payment } from '@portal/contract/payments';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { startPaymentWorker } from '../src/modules/payments/payment-processing.ts';
import { encrypt } from '../src/lib/keys.ts';
import { DATABASES, setup, signIn, startTestWebhookDelivery, type TestContext } from './harness.ts';
import { createKey, signedCall } from './partner-api-client.ts';
import { webhookReceiver, type Receiver } from './webhook-receiver.ts';
import { kenyaMomo, paymentWorkerDeps } from './payment-support.ts';

/**
 * A partner's server with an API key: creates a disbursement, sends it again with the same Idempotency-Key (one
 * payment), and its webhook receiver gets the signed event of every state, in the order they happened.
 */
describe.each(DATABASES)('payments over the partner API with webhooks on %s', (kind) => {
  let t: TestContext;
  let receiver: Receiver;
  let delivery: { stop(): Promise<void> };
  let worker: { stop(): Promise<void> };
  const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;

  beforeAll(async () => {
    t = await setup(kind, { jobs: true, config: { LOGIN_RATE_LIMIT: '10000' } });
    receiver = await webhookReceiver();
    await t.database.db
      .insertInto('webhook_endpoints')
      .values({
        partner_id: DEMO_PARTNERS.acme.id,
        id: crypto.randomUUID(),
        url: `${receiver.url}/hooks`,
        events: WEBHOOK_EVENT_TYPES.filter((e) => e.startsWith('PAYMENT.')),
        secret_encrypted: encrypt(t.keys.encryptionKey, secret),
      })
      .execute();
    delivery = await startTestWebhookDelivery(t, { schedule: [1, 1], concurrency: 8 });
    // a state lasts half a second: long enough for each event to be delivered before the next is made
    worker = await startPaymentWorker(paymentWorkerDeps(t, { stepSeconds: 0.5 }));
  });
  afterAll(async () => {
    await worker?.stop();
    await delivery?.stop();
    await receiver?.close();
    await t?.close();
  });

  it('one payment for two sends with one Idempotency-Key; a signed webhook per state, in order', async () => {
    const admin = await signIn(t, 'admin@acme.test');
    const key = await createKey(admin, { name: 'Payouts', permissions: ['api_read', 'api_write'] });
    // ends in 3: completes, then is refunded (six states)
    const body = (await kenyaMomo(t))('2003');
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await signedCall(t.app, key, 'POST', '/api/v1/partner/disbursement', { body, headers });
    const second = await signedCall(t.app, key, 'POST', '/api/v1/partner/disbursement', { body, headers });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const id = first.json<{ payment: Payment }>().payment.id;
    expect(second.json<{ payment: Payment }>().payment.id).toBe(id);
    const count = (
      await t.database.executeSql(`select count(*)::int as n from payment_orders where partner_id = $1 and sequence_id = $2`, [
        DEMO_PARTNERS.acme.id,
        body.sequenceId,
      ])
    ).rows[0] as { n: number };
    expect(count.n).toBe(1);

    const expected = SANDBOX_PATHS.refunded.map((s) => `PAYMENT.${s.toUpperCase()}`);
    const mine = () => receiver.received.map((r) => receiver.verify(secret, r)).filter((e) => e.data.id === id);
    const until = Date.now() + 20_000;
    while (mine().length < expected.length && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const events = mine();
    expect(events.map((e) => e.type)).toEqual(expected);
    expect(events.map((e) => e.data.status)).toEqual(SANDBOX_PATHS.refunded);
    expect(new Set(events.map((e) => e.id)).size).toBe(expected.length);
    // the API reads the same story
    const read = await signedCall(t.app, key, 'GET', `/api/v1/disbursements/${id}`);
    expect(read.json<{ payment: Payment }>().payment.timeline.map((e) => e.status)).toEqual(SANDBOX_PATHS.refunded);
  });
});
