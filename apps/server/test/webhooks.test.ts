import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES,
  type CreatedWebhookResponse,
  type Webhook,
  type WebhookActivityResponse,
  type WebhookDelivery,
} from '@portal/contract/webhooks';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import type { WebhookDelivery as Delivery } from '../src/modules/webhooks/webhook-delivery.ts';
import { webhookUpkeep, WEBHOOK_RETENTION_DAYS } from '../src/modules/webhooks/webhook-upkeep.ts';
import { postWebhook } from '../src/modules/webhooks/webhook-http.ts';
import { MANUAL_SENDS_PER_MINUTE } from '../src/modules/webhooks/webhooks.service.ts';
import { encrypt } from '../src/lib/keys.ts';
import { recordEvent, settlementEvent, type WebhookEventInput } from '../src/modules/webhooks/webhook-events.ts';
import { webhookMessageId } from '../src/modules/webhooks/webhook-signing.ts';
import { DATABASES, setup, setupOverSmtp, signIn, startTestWebhookDelivery, type TestContext } from './harness.ts';
import { mailText, smtpSink, type Sink } from './smtp-sink.ts';
import type { NotificationList } from '@portal/contract/notifications';
import { webhookReceiver, type Receiver } from './webhook-receiver.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;
const KORA = DEMO_PARTNERS.kora.id;
/** a short retry schedule: four retries a second apart */
const SCHEDULE = [1, 1, 1, 1];
const TIMEOUT_MS = 1500;
const USERS = ['admin@acme.test', 'admin2@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test'];

describe.each(DATABASES)('webhooks on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let rx: Receiver;
  let delivery: Delivery;
  const s: Record<string, Session> = {};

  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, jobs: true }));
    rx = await webhookReceiver();
    delivery = await startTestWebhookDelivery(t, { schedule: SCHEDULE, concurrency: 8, timeoutMs: TIMEOUT_MS });
    for (const email of USERS) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await delivery?.stop();
    await t?.close();
    await rx?.close();
  });
  afterEach(() => rx.answer(() => ({ status: 200, text: 'ok' })));

  const call = (email: string) => {
    const { browser, accessToken: token } = s[email]!;
    return {
      get: (url: string) => browser.get(`/api/v1/${url}`, { token }),
      post: (url: string, body: unknown = {}) => browser.post(`/api/v1/${url}`, body, { token }),
      put: (url: string, body: unknown) => browser.put(`/api/v1/${url}`, body, { token }),
      delete: (url: string) => browser.delete(`/api/v1/${url}`, { token }),
    };
  };

  /** Asks for a code as `email` for a change (in a fresh rate-limit window) and reads it from the mail. */
  async function codeFor(email: string, purpose: unknown) {
    t.clock.now += 11 * 60_000;
    const before = smtp.received.length;
    expect((await call(email).put('user/otp', purpose)).statusCode).toBe(200);
    // other mail may arrive meanwhile (a failing endpoint's notice): take the code's
    const codeMail = () => smtp.received.slice(before).find((m) => m.to.includes(email) && /verification code is \d{6}/.test(mailText(m.raw)));
    await expect.poll(() => codeMail() !== undefined).toBe(true);
    return /verification code is (\d{6})/.exec(mailText(codeMail()!.raw))![1]!;
  }

  async function createWebhook(email: string, body: { url: string; events: string[]; description?: string }): Promise<CreatedWebhookResponse> {
    const res = await call(email).post('partner/webhook', { ...body, otp: await codeFor(email, { action: 'webhook.create', target: { url: body.url } }) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  const record = (event: WebhookEventInput) => t.database.db.transaction().execute((trx) => recordEvent(trx, event));
  const arrivals = (path: string, eventId?: string) => rx.received.filter((r) => r.path === path && (!eventId || r.id === webhookMessageId(eventId)));
  const activity = async (email: string, query = '') => (await call(email).get(`partner/activity?type=webhook${query}`)).json<WebhookActivityResponse>();
  const deliveryOf = async (webhookId: string, eventId: string): Promise<WebhookDelivery | undefined> =>
    (await activity('admin@acme.test', `&webhookId=${webhookId}&size=100`)).activities.find((a) => a.eventId === webhookMessageId(eventId));
  const settled = async (webhookId: string, eventId: string) => {
    await expect.poll(async () => (await deliveryOf(webhookId, eventId))?.status, { timeout: 20_000, interval: 200 }).not.toBe('pending');
    return (await deliveryOf(webhookId, eventId))!;
  };
  const settlement = (status: string) => ({
    partner_id: ACME,
    id: crypto.randomUUID(),
    created_at: new Date(),
    status,
    type: 'payout',
    transaction_hash: null,
    internal_wallet_address: 'TInternal',
    external_wallet_address: 'TExternal',
    crypto_currency: 'USDT',
    crypto_amount: '1250.50000000',
    network: 'TRC20',
    crypto_rate: '1.000000000000',
    fiat_amount_usd: '1250.50000000',
    wallet_balance_usd: '23749.50000000',
    fiat_amount: null,
    fiat_rate: null,
    fiat_wallet: null,
    sequence_id: `seq-${crypto.randomUUID()}`,
  });

  it('creates a webhook with the e-mailed code and shows its signing secret once', async () => {
    const wrong = await call('admin@acme.test').post('partner/webhook', { url: `${rx.url}/created`, events: ['SETTLEMENT.COMPLETE'], otp: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp' });

    const { webhook, secret } = await createWebhook('admin@acme.test', {
      url: `${rx.url}/created`,
      events: ['SETTLEMENT.COMPLETE', 'SETTLEMENT.COMPLETE', 'PAYMENT.FAILED'],
      description: 'Ledger sync',
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({
      partnerId: ACME,
      url: `${rx.url}/created`,
      events: ['SETTLEMENT.COMPLETE', 'PAYMENT.FAILED'],
      description: 'Ledger sync',
      active: true,
      state: 'healthy',
      failingSince: null,
    });

    const list = await call('admin@acme.test').get('partner/webhook');
    expect(list.json<{ webhooks: Webhook[] }>().webhooks.map((w) => w.id)).toContain(webhook.id);
    expect(list.body).not.toContain(secret.slice(6));
    const row = await t.database.db.selectFrom('webhook_endpoints').select('secret_encrypted').where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row.secret_encrypted).toMatch(/^v2:/);
    expect(row.secret_encrypted).not.toContain(secret.slice(6));
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'target', 'actor'])
      .where('action', '=', 'webhook.created')
      .where('target', '=', webhook.id)
      .execute();
    expect(audit).toEqual([{ action: 'webhook.created', target: webhook.id, actor: 'admin@acme.test' }]);
  });

  it('refuses bad input with a 400 in the error shape', async () => {
    const admin = call('admin@acme.test');
    const bad = [
      { url: 'ftp://example.com/hook', events: ['SETTLEMENT.COMPLETE'], otp: '123456' },
      { url: 'not a url', events: ['SETTLEMENT.COMPLETE'], otp: '123456' },
      { url: 'https://example.com/hook#part', events: ['SETTLEMENT.COMPLETE'], otp: '123456' },
      { url: 'https://example.com/hook', events: [], otp: '123456' },
      { url: 'https://example.com/hook', events: ['SETTLEMENT.DONE'], otp: '123456' },
      { url: 'https://example.com/hook', events: ['SETTLEMENT.COMPLETE'], otp: '12345' },
      { url: 'https://example.com/hook', events: ['SETTLEMENT.COMPLETE'] },
    ];
    for (const body of bad) {
      const res = await admin.post('partner/webhook', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'message', 'requestId']);
    }
    expect((await admin.put('partner/webhook', { id: crypto.randomUUID(), active: false, otp: '123456' })).statusCode).toBe(404);
    expect((await admin.delete(`partner/webhook/${crypto.randomUUID()}?otp=123456`)).statusCode).toBe(404);
    expect((await admin.delete(`partner/webhook/not-an-id?otp=123456`)).statusCode).toBe(400);
    expect((await admin.get('partner/activity?type=wallet')).statusCode).toBe(400);
    expect((await admin.get('partner/activity?type=webhook&size=1000')).statusCode).toBe(400);
  });

  it('lets every role read webhooks and only admins change them', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/roles`, events: ['PAYMENT.COMPLETE'] });
    const event = await record({ partnerId: ACME, type: 'PAYMENT.COMPLETE', data: { id: crypto.randomUUID(), status: 'complete' } });
    const done = await settled(webhook.id, event.eventId);
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      const who = call(email);
      expect((await who.get('partner/webhook')).statusCode).toBe(200);
      expect((await activity(email)).activities.map((a) => a.id)).toContain(done.id);
      const refused = [
        await who.post('partner/webhook', { url: `${rx.url}/x`, events: ['PAYMENT.COMPLETE'], otp: '123456' }),
        await who.put('partner/webhook', { id: webhook.id, active: false, otp: '123456' }),
        await who.delete(`partner/webhook/${webhook.id}?otp=123456`),
        await who.post(`partner/webhook/${webhook.id}/test`),
        await who.post(`partner/activity/${done.id}/resend`),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
      expect(refused[0]!.json()).toMatchObject({ code: 'Forbidden', message: 'Only an admin can do this.' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/webhook' })).statusCode).toBe(401);
  });

  it('keeps partners apart, and needs the flag and a business partner', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/apart`, events: ['COLLECTION.COMPLETE'] });
    const event = await record({ partnerId: ACME, type: 'COLLECTION.COMPLETE', data: { id: crypto.randomUUID() } });
    const acmeDelivery = await settled(webhook.id, event.eventId);

    const lean = call('admin@lean.test');
    const off = await lean.get('partner/webhook');
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ code: 'Forbidden', message: WEBHOOK_MESSAGES.notEnabled });
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"webhooksManagementEnabled": true}'::jsonb where id = $1`, [LEAN]);
    expect((await lean.get('partner/webhook')).json()).toEqual({ webhooks: [] });
    expect((await activity('admin@lean.test')).activities).toEqual([]);
    // a code that confirms no change: the endpoint is not found first
    const code = await codeFor('admin@lean.test', {});
    expect((await lean.put('partner/webhook', { id: webhook.id, active: false, otp: code })).statusCode).toBe(404);
    expect((await lean.delete(`partner/webhook/${webhook.id}?otp=${code}`)).statusCode).toBe(404);
    expect((await lean.post(`partner/webhook/${webhook.id}/test`)).statusCode).toBe(404);
    expect((await lean.post(`partner/activity/${acmeDelivery.id}/resend`)).statusCode).toBe(404);
    expect((await lean.get(`partner/activity?type=webhook&webhookId=${webhook.id}`)).json()).toEqual({ activities: [], total: 0 });
    // Acme's endpoint is untouched
    expect((await call('admin@acme.test').get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.find((w) => w.id === webhook.id)?.active).toBe(true);

    const kora = call('admin@kora.test');
    expect((await kora.get('partner/webhook')).json()).toMatchObject({ message: WEBHOOK_MESSAGES.notEnabled });
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"webhooksManagementEnabled": true}'::jsonb where id = $1`, [KORA]);
    const commercial = await kora.get('partner/webhook');
    expect(commercial.statusCode).toBe(403);
    expect(commercial.json()).toMatchObject({ message: WEBHOOK_MESSAGES.businessOnly });
  });

  it('limits a partner to 16 webhooks, checked before the code is spent', async () => {
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"webhooksManagementEnabled": true}'::jsonb where id = $1`, [LEAN]);
    const existing = (await call('admin@lean.test').get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.length;
    for (let i = existing; i < MAX_WEBHOOKS; i++) {
      await t.database.db
        .insertInto('webhook_endpoints')
        .values({
          partner_id: LEAN,
          id: crypto.randomUUID(),
          url: `https://example.com/${i}`,
          events: ['PAYMENT.COMPLETE'],
          secret_encrypted: encrypt(t.keys.encryptionKey, 'whsec_x'),
        })
        .execute();
    }
    const res = await call('admin@lean.test').post('partner/webhook', { url: 'https://example.com/17', events: ['PAYMENT.COMPLETE'], otp: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'TooManyWebhooks', message: WEBHOOK_MESSAGES.tooMany });
    await t.database.db.deleteFrom('webhook_endpoints').where('partner_id', '=', LEAN).execute();
  });

  it('delivers an event recorded with its change, signed so that the standardwebhooks library verifies it', async () => {
    const { webhook, secret } = await createWebhook('admin@acme.test', { url: `${rx.url}/signed`, events: ['SETTLEMENT.COMPLETE'] });
    const other = await createWebhook('admin@acme.test', { url: `${rx.url}/other-events`, events: ['SETTLEMENT.FAILED'] });
    const paused = await createWebhook('admin@acme.test', { url: `${rx.url}/paused`, events: ['SETTLEMENT.COMPLETE'] });
    expect(
      (
        await call('admin@acme.test').put('partner/webhook', {
          id: paused.webhook.id,
          active: false,
          otp: await codeFor('admin@acme.test', { action: 'webhook.update', target: { id: paused.webhook.id } }),
        })
      ).statusCode,
    ).toBe(200);

    // the change and its announcement in one transaction (the outbox)
    const row = settlement('complete');
    const recorded = await t.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('settlements').values(row).execute();
      return recordEvent(trx, settlementEvent(row));
    });
    // one delivery per active endpoint subscribed to the type (an earlier test's endpoint listens too)
    expect(recorded).toMatchObject({ duplicate: false });
    const subscribed = await t.database.db.selectFrom('webhook_endpoints').select('id').where('partner_id', '=', ACME).where('active', '=', true).execute();
    const forEvent = await t.database.db.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', recorded.eventId).execute();
    expect(forEvent.map((d) => d.endpoint_id)).toContain(webhook.id);
    expect(forEvent.map((d) => d.endpoint_id)).not.toContain(paused.webhook.id);
    expect(forEvent.map((d) => d.endpoint_id)).not.toContain(other.webhook.id);
    expect(recorded.deliveries).toBe(forEvent.length);
    expect(subscribed.length).toBeGreaterThan(forEvent.length);
    await expect.poll(() => arrivals('/signed', recorded.eventId).length, { timeout: 10_000 }).toBe(1);
    const got = arrivals('/signed', recorded.eventId)[0]!;
    expect(got.id).toBe(webhookMessageId(recorded.eventId));
    expect(got.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const body = rx.verify(secret, got);
    expect(body).toMatchObject({
      id: got.id,
      type: 'SETTLEMENT.COMPLETE',
      data: { id: row.id, status: 'complete', cryptoAmount: '1250.50000000', sequenceId: row.sequence_id, network: 'TRC20' },
    });
    // a signature made with another secret, or over another body, does not verify
    expect(() => rx.verify(other.secret, got)).toThrow();
    expect(() => rx.verify(secret, { ...got, body: got.body.replace('1250.5', '9250.5') })).toThrow();

    const done = await settled(webhook.id, recorded.eventId);
    expect(done).toMatchObject({ status: 'succeeded', eventType: 'SETTLEMENT.COMPLETE', url: `${rx.url}/signed`, nextAttemptAt: null, payload: body });
    expect(done.attempts).toEqual([
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      { attemptedAt: expect.any(String), statusCode: 200, durationMs: expect.any(Number), responseSnippet: 'ok', error: null, trigger: 'automatic' },
    ]);
    expect(arrivals('/other-events')).toEqual([]);
    expect(arrivals('/paused')).toEqual([]);
  });

  it('announces nothing when the change rolls back, and one change once', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/outbox`, events: ['PAYMENT.PROCESSING'] });
    const id = crypto.randomUUID();
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, { partnerId: ACME, type: 'PAYMENT.PROCESSING', data: { id } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const first = await record({ partnerId: ACME, type: 'PAYMENT.PROCESSING', data: { id } });
    const again = await record({ partnerId: ACME, type: 'PAYMENT.PROCESSING', data: { id, note: 'announced twice' } });
    expect(first.duplicate).toBe(false);
    expect(again).toMatchObject({ duplicate: true, deliveries: 0 });
    await settled(webhook.id, first.eventId);
    const events = await t.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('partner_id', '=', ACME)
      .where('dedupe_key', '=', `PAYMENT.PROCESSING:${id}`)
      .execute();
    expect(events).toHaveLength(1);
    expect(arrivals('/outbox')).toHaveLength(1);
    await expect(record({ partnerId: ACME, type: 'PAYMENT.DONE' as never, data: {} })).rejects.toThrow('unknown webhook event type');
  });

  it('retries 5xx, 429, timeouts and dropped connections with the same webhook-id, each attempt signed anew', async () => {
    const { webhook, secret } = await createWebhook('admin@acme.test', { url: `${rx.url}/flaky`, events: ['COLLECTION.PENDING'] });
    const answers = [{ status: 503, text: 'busy' }, { status: 429 }, { drop: true as const }, { hang: true as const }, { status: 200, text: 'finally' }];
    rx.answer((r) => (r.path === '/flaky' ? (answers[arrivals('/flaky').length - 1] ?? { status: 200 }) : { status: 200 }));
    const event = await record({ partnerId: ACME, type: 'COLLECTION.PENDING', data: { id: crypto.randomUUID() } });
    const done = await settled(webhook.id, event.eventId);
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => [a.statusCode, a.responseSnippet, a.error])).toEqual([
      [503, 'busy', null],
      [429, null, null],
      [null, null, expect.stringMatching(/^(Connection reset|Network error)/)],
      [null, null, `Timed out after ${TIMEOUT_MS / 1000} s`],
      [200, 'finally', null],
    ]);
    const got = arrivals('/flaky', event.eventId);
    expect(got).toHaveLength(5);
    expect(new Set(got.map((r) => r.id))).toEqual(new Set([webhookMessageId(event.eventId)]));
    for (const r of got) expect(rx.verify(secret, r).type).toBe('COLLECTION.PENDING');
    // the schedule's waits are kept between attempts
    for (let i = 1; i < got.length; i++) expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThanOrEqual(SCHEDULE[i - 1]! * 1000 - 50);
  });

  it('does not retry an answer that says the request itself is wrong (4xx)', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/bad-request`, events: ['PAYMENT.REFUNDED'] });
    rx.answer(() => ({ status: 400, text: 'signature mismatch' }));
    const event = await record({ partnerId: ACME, type: 'PAYMENT.REFUNDED', data: { id: crypto.randomUUID() } });
    const done = await settled(webhook.id, event.eventId);
    expect(done.status).toBe('failed');
    expect(done.attempts.map((a) => a.statusCode)).toEqual([400]);
  });

  it('after the schedule fails the delivery, marks the endpoint failing and tells its admins once (the bell and an e-mail); a success heals it', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/down-for-good`, events: ['PAYMENT.EXPIRED'] });
    rx.answer(() => ({ status: 500, text: 'Internal Server Error' }));
    // the admins' notice of the new endpoint is sent first: only the failure's notices are counted below
    await t.app.mailRelay.deliver();
    const mailsBefore = smtp.received.length;
    const first = await record({ partnerId: ACME, type: 'PAYMENT.EXPIRED', data: { id: crypto.randomUUID() } });
    const second = await record({ partnerId: ACME, type: 'PAYMENT.EXPIRED', data: { id: crypto.randomUUID() } });
    for (const e of [first, second]) {
      const done = await settled(webhook.id, e.eventId);
      expect(done.status).toBe('failed');
      expect(done.attempts).toHaveLength(SCHEDULE.length + 1);
    }
    const failing = (await call('admin@acme.test').get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.find((w) => w.id === webhook.id)!;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
    expect(failing).toMatchObject({ state: 'failing', failingSince: expect.any(String) });
    const notices = () => smtp.received.slice(mailsBefore).filter((m) => mailText(m.raw).includes('/down-for-good'));
    await expect.poll(() => notices().length, { timeout: 10_000 }).toBe(2);
    const mails = notices();
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['admin2@acme.test', 'admin@acme.test']);
    expect(mailText(mails[0]!.raw)).toContain(`${rx.url}/down-for-good`);
    expect(mailText(mails[0]!.raw)).toContain(`${t.app.config.publicUrl}/webhooks`);
    // the same notice in the bell of each admin, under the developers' topic
    const bell = async (email: string) =>
      (await call(email).get('notifications'))
        .json<NotificationList>()
        .items.filter((n) => n.topic === 'developers' && n.title === 'A webhook endpoint is failing' && n.body.includes('/down-for-good'));
    for (const email of ['admin@acme.test', 'admin2@acme.test']) expect(await bell(email)).toHaveLength(1);

    rx.answer(() => ({ status: 200, text: 'ok' }));
    const third = await record({ partnerId: ACME, type: 'PAYMENT.EXPIRED', data: { id: crypto.randomUUID() } });
    expect((await settled(webhook.id, third.eventId)).status).toBe('succeeded');
    const healed = (await call('admin@acme.test').get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.find((w) => w.id === webhook.id)!;
    expect(healed).toMatchObject({ state: 'healthy', failingSince: null });
    // the second failed delivery found the endpoint failing already: no second notice
    expect(notices()).toHaveLength(2);
    expect(await bell('admin@acme.test')).toHaveLength(1);
  });

  it('a receiver that is down for a while and then up gets every event, each verifiable', async () => {
    const { webhook, secret } = await createWebhook('admin@acme.test', { url: `${rx.url}/outage`, events: ['COLLECTION.COMPLETE'] });
    const upAt = Date.now() + 2500;
    rx.answer((r) => (r.path !== '/outage' || Date.now() >= upAt ? { status: 200, text: 'ok' } : Math.random() < 0.5 ? { drop: true } : { status: 503 }));
    const events = [];
    for (let i = 0; i < 25; i++) {
      events.push(await record({ partnerId: ACME, type: 'COLLECTION.COMPLETE', data: { id: crypto.randomUUID(), n: i } }));
      await new Promise((r) => setTimeout(r, 40));
    }
    for (const e of events) expect((await settled(webhook.id, e.eventId)).status).toBe('succeeded');
    const delivered = new Map<string, number>();
    for (const r of arrivals('/outage').filter((r) => r.at >= upAt)) delivered.set(r.id, rx.verify(secret, r).data.n as number);
    expect([...delivered.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(arrivals('/outage').filter((r) => r.at < upAt).length).toBeGreaterThan(0);
  });

  it('resends a finished delivery once with the same webhook-id, and sends a test event', async () => {
    const { webhook, secret } = await createWebhook('admin@acme.test', { url: `${rx.url}/resend`, events: ['SETTLEMENT.FAILED'] });
    const event = await record({ partnerId: ACME, type: 'SETTLEMENT.FAILED', data: { id: crypto.randomUUID() } });
    const done = await settled(webhook.id, event.eventId);
    // the receiver takes a second to refuse the manual attempt: the second resend below meets it under way
    rx.answer(() => ({ status: 500, afterMs: 1000 }));
    const resent = await call('admin@acme.test').post(`partner/activity/${done.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json<{ delivery: WebhookDelivery }>().delivery).toMatchObject({ id: done.id, status: 'pending' });
    const again = await call('admin@acme.test').post(`partner/activity/${done.id}/resend`);
    expect(again.statusCode).toBe(409);
    const after = await settled(webhook.id, event.eventId);
    // one manual attempt, no automatic retries after it, and the endpoint is not marked failing by it
    expect(after.status).toBe('failed');
    expect(after.attempts.map((a) => [a.statusCode, a.trigger])).toEqual([
      [200, 'automatic'],
      [500, 'manual'],
    ]);
    expect(arrivals('/resend', event.eventId).map((r) => r.id)).toEqual([got(event.eventId), got(event.eventId)]);
    expect((await call('admin@acme.test').get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.find((w) => w.id === webhook.id)!.state).toBe(
      'healthy',
    );
    rx.answer(() => ({ status: 200, text: 'ok' }));
    expect((await call('admin@acme.test').post(`partner/activity/${done.id}/resend`)).statusCode).toBe(200);
    expect((await settled(webhook.id, event.eventId)).status).toBe('succeeded');
    expect(arrivals('/resend', event.eventId)).toHaveLength(3);

    const test = await call('admin@acme.test').post(`partner/webhook/${webhook.id}/test`);
    expect(test.statusCode).toBe(200);
    const testDelivery = test.json<{ delivery: WebhookDelivery }>().delivery;
    expect(testDelivery).toMatchObject({ webhookId: webhook.id, eventType: 'WEBHOOK.TEST' });
    await expect.poll(() => arrivals('/resend').filter((r) => r.id === testDelivery.eventId).length, { timeout: 10_000 }).toBe(1);
    const body = rx.verify(
      secret,
      arrivals('/resend').find((r) => r.id === testDelivery.eventId)!,
    );
    expect(body).toMatchObject({ type: 'WEBHOOK.TEST', data: { webhookId: webhook.id, sentBy: 'admin@acme.test' } });
  });
  const got = (eventId: string) => webhookMessageId(eventId);

  it('changes and deletes an endpoint with the code; its history goes with it', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/change-me`, events: ['PAYMENT.PENDING'] });
    const event = await record({ partnerId: ACME, type: 'PAYMENT.PENDING', data: { id: crypto.randomUUID() } });
    await settled(webhook.id, event.eventId);
    const admin = call('admin@acme.test');
    const wrong = await admin.put('partner/webhook', { id: webhook.id, url: `${rx.url}/changed`, otp: '000000' });
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await admin.put('partner/webhook', { id: webhook.id, otp: '123456' })).json()).toMatchObject({
      code: 'ValidationFailed',
      message: 'Nothing to change.',
    });
    const changed = await admin.put('partner/webhook', {
      id: webhook.id,
      url: `${rx.url}/changed`,
      events: ['PAYMENT.COMPLETE', 'PAYMENT.FAILED'],
      description: 'Changed',
      otp: await codeFor('admin@acme.test', { action: 'webhook.update', target: { id: webhook.id, url: `${rx.url}/changed` } }),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ webhook: Webhook }>().webhook).toMatchObject({
      url: `${rx.url}/changed`,
      events: ['PAYMENT.COMPLETE', 'PAYMENT.FAILED'],
      description: 'Changed',
    });
    const code = await codeFor('admin@acme.test', { action: 'webhook.delete', target: { id: webhook.id } });
    expect((await admin.delete(`partner/webhook/${webhook.id}?otp=000000`)).json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await admin.delete(`partner/webhook/${webhook.id}?otp=${code}`)).json()).toEqual({ id: webhook.id });
    expect((await admin.delete(`partner/webhook/${webhook.id}?otp=${code}`)).statusCode).toBe(404);
    expect((await activity('admin@acme.test', `&webhookId=${webhook.id}`)).total).toBe(0);
    const actions = await t.database.db.selectFrom('audit_events').select('action').where('target', '=', webhook.id).orderBy('created_at').execute();
    expect(actions.map((a) => a.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.deleted']);
  });

  it('rolls a secret with the code: during the overlap deliveries carry both signatures, after it only the new', async () => {
    const admin = call('admin@acme.test');
    const { webhook, secret: oldSecret } = await createWebhook('admin@acme.test', { url: `${rx.url}/rolled`, events: ['PAYMENT.REFUNDED'] });
    const deliverOne = async () => {
      const event = await record({ partnerId: ACME, type: 'PAYMENT.REFUNDED', data: { id: crypto.randomUUID() } });
      await expect.poll(() => arrivals('/rolled', event.eventId).length, { timeout: 10_000 }).toBe(1);
      return arrivals('/rolled', event.eventId)[0]!;
    };
    const purpose = { action: 'webhook.roll', target: { id: webhook.id } };
    // the code is bound to its change and its endpoint
    const other = await createWebhook('admin@acme.test', { url: `${rx.url}/rolled-other`, events: ['PAYMENT.REFUNDED'] });
    const forOther = await codeFor('admin@acme.test', { action: 'webhook.roll', target: { id: other.webhook.id } });
    expect((await admin.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 60, otp: forOther })).json()).toMatchObject({
      code: 'OtpForAnotherChange',
    });
    const forDelete = await codeFor('admin@acme.test', { action: 'webhook.delete', target: { id: webhook.id } });
    expect((await admin.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 60, otp: forDelete })).json()).toMatchObject({
      code: 'OtpForAnotherChange',
    });
    expect((await admin.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 7 * 24 * 60 + 1, otp: '123456' })).statusCode).toBe(400);

    const at = t.clock.now + 11 * 60_000; // codeFor moves the clock so far
    const rolled = await admin.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 60, otp: await codeFor('admin@acme.test', purpose) });
    expect(rolled.statusCode, rolled.body).toBe(200);
    const { webhook: after, secret: newSecret } = rolled.json<CreatedWebhookResponse>();
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(after.previousSecretExpiresAt).toBe(new Date(at + 60 * 60_000).toISOString());
    const listed = (await admin.get('partner/webhook')).json<{ webhooks: Webhook[] }>().webhooks.find((w) => w.id === webhook.id)!;
    expect(listed.previousSecretExpiresAt).toBe(after.previousSecretExpiresAt);
    expect((await admin.get('partner/webhook')).body).not.toContain(newSecret.slice(6));

    // during the overlap: `v1,<new> v1,<old>`, and a receiver with either secret accepts the delivery
    const during = await deliverOne();
    expect(during.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(rx.verify(oldSecret, during)).toMatchObject({ id: during.id, type: 'PAYMENT.REFUNDED' });
    expect(rx.verify(newSecret, during)).toMatchObject({ id: during.id, type: 'PAYMENT.REFUNDED' });
    expect(() => rx.verify(other.secret, during)).toThrow();

    // after the end time: only the new secret signs
    await t.database.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', webhook.id)
      .execute();
    const ended = await deliverOne();
    expect(ended.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(rx.verify(newSecret, ended)).toMatchObject({ id: ended.id });
    expect(() => rx.verify(oldSecret, ended)).toThrow();

    // a roll with 0 minutes ends the old secret at once, and the secret left from the earlier roll ends too
    const again = await admin.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 0, otp: await codeFor('admin@acme.test', purpose) });
    expect(again.statusCode).toBe(200);
    const { webhook: third, secret: thirdSecret } = again.json<CreatedWebhookResponse>();
    expect(third.previousSecretExpiresAt).toBeNull();
    const stored = await t.database.db
      .selectFrom('webhook_endpoints')
      .select(['previous_secret_encrypted', 'previous_secret_expires_at', 'secret_encrypted'])
      .where('id', '=', webhook.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ previous_secret_encrypted: null, previous_secret_expires_at: null });
    expect(stored.secret_encrypted).toMatch(/^v2:/);
    const now = await deliverOne();
    expect(rx.verify(thirdSecret, now)).toMatchObject({ id: now.id });
    expect(() => rx.verify(newSecret, now)).toThrow();

    const actions = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('target', '=', webhook.id)
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['webhook.created', 'webhook.secret_rolled', 'webhook.secret_rolled']);
    // the partner's admins are told, by the notifier in the roll's transaction
    const told = await t.database.db
      .selectFrom('notifications')
      .select(['title'])
      .where('partner_id', '=', ACME)
      .where('title', '=', 'A webhook secret was rolled')
      .execute();
    expect(told.length).toBeGreaterThanOrEqual(2);
    // room for the later tests' endpoints (at most 16 a partner)
    await t.database.db.deleteFrom('webhook_endpoints').where('id', 'in', [webhook.id, other.webhook.id]).execute();
  });

  it('lets only admins of the endpoint partner roll its secret', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/roll-roles`, events: ['PAYMENT.COMPLETE'] });
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      const refused = await call(email).post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 60, otp: '123456' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'Forbidden', message: 'Only an admin can do this.' });
      // no code is sent for it either
      expect((await call(email).put('user/otp', { action: 'webhook.roll', target: { id: webhook.id } })).statusCode).toBe(403);
    }
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"webhooksManagementEnabled": true}'::jsonb where id = $1`, [LEAN]);
    const lean = call('admin@lean.test');
    expect((await lean.put('user/otp', { action: 'webhook.roll', target: { id: webhook.id } })).statusCode).toBe(404);
    const code = await codeFor('admin@lean.test', {});
    expect((await lean.post(`partner/webhook/${webhook.id}/roll-secret`, { previousSecretMinutes: 0, otp: code })).statusCode).toBe(404);
    const row = await t.database.db.selectFrom('webhook_endpoints').select('previous_secret_expires_at').where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row.previous_secret_expires_at).toBeNull();
    const actions = await t.database.db.selectFrom('audit_events').select('action').where('target', '=', webhook.id).execute();
    expect(actions.map((a) => a.action)).toEqual(['webhook.created']);
    await t.database.db.deleteFrom('webhook_endpoints').where('id', '=', webhook.id).execute();
  });

  it('lists the activity newest first with a total, by endpoint and status', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/list`, events: ['COLLECTION.FAILED'] });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await record({ partnerId: ACME, type: 'COLLECTION.FAILED', data: { id: crypto.randomUUID() } })).eventId);
    for (const id of ids) await settled(webhook.id, id);
    const page = await activity('admin@acme.test', `&webhookId=${webhook.id}&size=2`);
    expect(page.total).toBe(3);
    expect(page.activities.map((a) => a.eventId)).toEqual([got(ids[2]!), got(ids[1]!)]);
    expect((await activity('admin@acme.test', `&webhookId=${webhook.id}&startIndex=2`)).activities.map((a) => a.eventId)).toEqual([got(ids[0]!)]);
    expect((await activity('admin@acme.test', `&webhookId=${webhook.id}&status=failed`)).total).toBe(0);
  });

  it('limits test events and resends to 30 a minute per partner', async () => {
    await t.database.executeSql(`update partners set feature_flags = feature_flags || '{"webhooksManagementEnabled": true}'::jsonb where id = $1`, [LEAN]);
    const { webhook } = await createWebhook('admin@lean.test', { url: `${rx.url}/limited`, events: ['PAYMENT.COMPLETE'] });
    const codes = [];
    for (let i = 0; i <= MANUAL_SENDS_PER_MINUTE; i++) codes.push((await call('admin@lean.test').post(`partner/webhook/${webhook.id}/test`)).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(MANUAL_SENDS_PER_MINUTE);
    const refused = await call('admin@lean.test').post(`partner/webhook/${webhook.id}/test`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'TooManyRequests' });
    // another partner is not held back by it
    const acme = await createWebhook('admin@acme.test', { url: `${rx.url}/not-limited`, events: ['PAYMENT.COMPLETE'] });
    expect((await call('admin@acme.test').post(`partner/webhook/${acme.webhook.id}/test`)).statusCode).toBe(200);
  });

  it('upkeep drops history past its retention and queues again a delivery whose job never reported back', async () => {
    const { webhook } = await createWebhook('admin@acme.test', { url: `${rx.url}/upkeep`, events: ['PAYMENT.CANCELLED'] });
    const old = await record({ partnerId: ACME, type: 'PAYMENT.CANCELLED', data: { id: crypto.randomUUID() } });
    await settled(webhook.id, old.eventId);
    // a delivery whose queue job was lost: pending, with a job id nobody will run
    const stuck = await t.database.db.transaction().execute(async (trx) => {
      const e = await recordEvent(trx, { partnerId: ACME, type: 'PAYMENT.CANCELLED', data: { id: crypto.randomUUID() } });
      await trx
        .updateTable('webhook_deliveries')
        .set({ job_id: crypto.randomUUID(), updated_at: new Date(Date.now() - 3600_000) })
        .where('event_id', '=', e.eventId)
        .execute();
      return e;
    });
    const result = await webhookUpkeep(t.database, Date.now() + WEBHOOK_RETENTION_DAYS * 86400_000 + 60_000);
    expect(result.requeued).toBe(1);
    expect(result.deletedEvents).toBeGreaterThan(0);
    expect(await deliveryOf(webhook.id, old.eventId)).toBeUndefined();
    expect((await settled(webhook.id, stuck.eventId)).status).toBe('succeeded');
  });
});

describe.each(DATABASES)('webhook targets in production on %s', (kind) => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let rx: Receiver;
  let admin: Session;
  beforeAll(async () => {
    smtp = await smtpSink();
    const key = () => crypto.randomBytes(32).toString('base64');
    t = await setup(kind, {
      config: { NODE_ENV: 'production', JWT_SECRET: key(), ENCRYPTION_KEY: key(), SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: '10000' },
      smtpUrl: smtp.url,
    });
    rx = await webhookReceiver();
    admin = await signIn(t, 'admin@acme.test');
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
    await smtp?.close();
  });

  it('refuses http, and private, loopback and link-local addresses, before the code is spent', async () => {
    const cases: [string, string][] = [
      ['http://example.com/hook', WEBHOOK_MESSAGES.httpsRequired],
      ['https://127.0.0.1/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://localhost:8443/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://[::1]/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://[::ffff:127.0.0.1]/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://10.1.2.3/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://192.168.0.10/hook', WEBHOOK_MESSAGES.privateTarget],
      ['https://169.254.169.254/latest/meta-data', WEBHOOK_MESSAGES.privateTarget],
      ['https://no-such-host.invalid/hook', WEBHOOK_MESSAGES.unresolvable],
    ];
    for (const [url, message] of cases) {
      const res = await admin.browser.post('/api/v1/partner/webhook', { url, events: ['PAYMENT.COMPLETE'], otp: '123456' }, { token: admin.accessToken });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'WebhookUrlRefused', message });
    }
  });

  it('refuses, at delivery time, a target that resolves to a private address (no request is made)', async () => {
    const send = (url: string) => postWebhook({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000, allowPrivate: false });
    for (const url of [`${rx.url}/x`, rx.url.replace('127.0.0.1', 'localhost'), rx.url.replace('127.0.0.1', '[::ffff:7f00:1]')]) {
      const outcome = await send(url);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      expect(outcome, url).toMatchObject({ statusCode: null, retryable: false, error: expect.stringMatching(/^Refused: .* private, loopback or link-local/) });
    }
    expect(rx.received).toEqual([]);
    // outside production the same receiver is reached
    expect(await postWebhook({ url: `${rx.url}/x`, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: true })).toMatchObject({ statusCode: 200 });
  });
});
