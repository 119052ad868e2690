import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent, LiveTopic } from '@portal/contract/live';
import type { PartnerRate } from '@portal/contract/rates';
import { WALLET_DELETION_REASONS } from '@portal/contract/wallets';
import type { WebhookDelivery } from '../src/modules/webhooks/webhook-delivery.ts';
import { blocklistScreener, startWalletScreeningWorker } from '../src/modules/wallets/wallet-screening.ts';
import type { App } from '../src/app.ts';
import { generateDemoAddress } from '../src/lib/deposit-addresses.ts';
import { DATABASES, setup, signIn, startTestWebhookDelivery, type TestContext } from './harness.ts';
import { createKey, signedCall } from './partner-api-client.ts';
import { readEvents } from './sse.ts';
import { mailText, smtpSink } from './smtp-sink.ts';
import { webhookReceiver } from './webhook-receiver.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

/** A signed-in user's event stream: the changes received so far. */
async function openStream(app: App, token: string) {
  const { port } = app.server.address() as AddressInfo;
  const events: LiveEvent[] = [];
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/v1/events', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      resolve,
    );
    req.on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  readEvents(res, (e) => {
    if (e.type === 'change' && e.data) events.push(JSON.parse(e.data) as LiveEvent);
  });
  return { events, close: () => res.destroy() };
}
type Stream = Awaited<ReturnType<typeof openStream>>;

/**
 * The topics beyond payments that the live event stream announces (countries, wallets, webhooks, API keys, the
 * team): each change reaches its partner's streams, within the change's transaction, and no other partner's.
 */
describe.each(DATABASES)('the live event stream announces countries, wallets, webhooks, API keys and the team on %s', (kind) => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let rx: Awaited<ReturnType<typeof webhookReceiver>>;
  let delivery: WebhookDelivery;
  let acme: Stream;
  let kora: Stream;
  const s: Record<string, Session> = {};
  const TOPICS: LiveTopic[] = ['countries', 'wallets', 'webhooks', 'api-keys', 'team'];

  beforeAll(async () => {
    [smtp, rx] = await Promise.all([smtpSink(), webhookReceiver()]);
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000', WALLET_SCREENING_SECONDS: '0' }, smtpUrl: smtp.url, jobs: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await startWalletScreeningWorker({ boss: t.app.boss!, service: t.app.services.wallets, screener: blocklistScreener(undefined), log: t.app.log });
    delivery = await startTestWebhookDelivery(t, { schedule: [1], concurrency: 4 });
    for (const email of ['admin@acme.test', 'admin2@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
    acme = await openStream(t.app, s['viewer@acme.test']!.accessToken);
    kora = await openStream(t.app, s['admin@kora.test']!.accessToken);
  });
  afterAll(async () => {
    acme?.close();
    kora?.close();
    await delivery?.stop();
    await t?.close();
    await Promise.all([smtp?.close(), rx?.close()]);
  });

  const as = (email: string) => ({ token: s[email]!.accessToken });
  const browser = (email: string) => s[email]!.browser;
  /** Asks for an e-mailed code as `email` for a change and reads it (other mail may arrive meanwhile: a wallet's screening). */
  async function code(email: string, purpose: unknown) {
    t.clock.now += 11 * 60_000;
    const before = smtp.received.length;
    expect((await browser(email).put('/api/v1/user/otp', purpose, as(email))).statusCode).toBe(200);
    const mail = () => smtp.received.slice(before).find((m) => m.to.includes(email) && /verification code is \d{6}/.test(mailText(m.raw)));
    await expect.poll(() => mail() !== undefined).toBe(true);
    return /verification code is (\d{6})/.exec(mailText(mail()!.raw))![1]!;
  }
  /** Waits for the event on Acme's stream (a viewer's: every role hears its partner's changes). */
  const arrives = async (expected: Partial<LiveEvent>) => {
    await expect
      .poll(() => acme.events.some((e) => Object.entries(expected).every(([k, v]) => e[k as keyof LiveEvent] === v)), { timeout: 15_000, interval: 25 })
      .toBe(true);
  };

  it('countries: a change asked for, then approved', async () => {
    const rates = (await browser('admin@acme.test').get('/api/v1/partner/rates', as('admin@acme.test'))).json<{ rates: PartnerRate[] }>().rates;
    const benin = rates.find((r) => r.locale === 'BJ')!;
    expect(benin.status).toBe('disabled');
    const asked = await browser('admin2@acme.test').put(
      '/api/v1/partner/rates',
      { rates: [{ partnerRateId: benin.id, platformRateId: benin.rateId, status: 'pending_enable' }] },
      as('admin2@acme.test'),
    );
    expect(asked.statusCode, asked.body).toBe(200);
    await arrives({ table: 'countries', kind: 'requested', id: benin.id, status: 'pending_enable' });
    const approved = await browser('admin@acme.test').put(
      '/api/v1/partner/rates/review',
      { rates: [{ partnerRateId: benin.id, platformRateId: benin.rateId, status: 'enabled' }] },
      as('admin@acme.test'),
    );
    expect(approved.statusCode, approved.body).toBe(200);
    await arrives({ table: 'countries', kind: 'approved', id: benin.id, status: 'enabled' });
  });

  it('wallets: added, approved, screened (the job), disabled, deleted', async () => {
    const { address } = generateDemoAddress('TRC20');
    const created = await browser('admin@acme.test').post(
      '/api/v1/partner/wallet',
      { address, network: 'TRC20', currencies: ['USDT'], otp: await code('admin@acme.test', { action: 'wallet.add', target: { address, network: 'TRC20' } }) },
      as('admin@acme.test'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ wallet: { id: string } }>().wallet.id;
    await arrives({ table: 'wallets', kind: 'added', id, status: 'pending_approval' });
    const reviewed = await browser('treasury@acme.test').put(
      '/api/v1/partner/wallet/status',
      { address, network: 'TRC20', status: 'approved' },
      as('treasury@acme.test'),
    );
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    await arrives({ table: 'wallets', kind: 'approved', id, status: 'pending_screening' });
    await arrives({ table: 'wallets', kind: 'screened', id, status: 'enabled' });
    const disabled = await browser('admin@acme.test').put('/api/v1/partner/wallet', { address, network: 'TRC20', status: 'disabled' }, as('admin@acme.test'));
    expect(disabled.statusCode, disabled.body).toBe(200);
    await arrives({ table: 'wallets', kind: 'disabled', id, status: 'disabled' });
    const removed = await browser('admin@acme.test').delete(`/api/v1/partner/wallet/${address}`, {
      payload: {
        reason: WALLET_DELETION_REASONS[0],
        network: 'TRC20',
        otp: await code('admin@acme.test', { action: 'wallet.delete', target: { address, network: 'TRC20' } }),
      },
      ...as('admin@acme.test'),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await arrives({ table: 'wallets', kind: 'deleted', id, status: 'deleted' });
  });

  it('webhooks: an endpoint added, its test delivery and the attempt the job made, changed, deleted', async () => {
    const created = await browser('admin@acme.test').post(
      '/api/v1/partner/webhook',
      {
        url: `${rx.url}/live`,
        events: ['SETTLEMENT.COMPLETE'],
        otp: await code('admin@acme.test', { action: 'webhook.create', target: { url: `${rx.url}/live` } }),
      },
      as('admin@acme.test'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ webhook: { id: string } }>().webhook.id;
    await arrives({ table: 'webhooks', kind: 'created', id, status: 'healthy' });
    const test = await browser('admin@acme.test').post(`/api/v1/partner/webhook/${id}/test`, {}, as('admin@acme.test'));
    expect(test.statusCode, test.body).toBe(200);
    const deliveryId = test.json<{ delivery: { id: string } }>().delivery.id;
    await arrives({ table: 'webhooks', kind: 'delivery', id: deliveryId, status: 'pending' });
    // the attempt, recorded by the delivery job
    await arrives({ table: 'webhooks', kind: 'delivery', id: deliveryId, status: 'succeeded' });
    expect(rx.received.some((r) => r.path === '/live')).toBe(true);
    const changed = await browser('admin@acme.test').put(
      '/api/v1/partner/webhook',
      { id, active: false, otp: await code('admin@acme.test', { action: 'webhook.update', target: { id } }) },
      as('admin@acme.test'),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    await arrives({ table: 'webhooks', kind: 'updated', id, status: 'disabled' });
    const deleted = await browser('admin@acme.test').delete(
      `/api/v1/partner/webhook/${id}?otp=${await code('admin@acme.test', { action: 'webhook.delete', target: { id } })}`,
      as('admin@acme.test'),
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    await arrives({ table: 'webhooks', kind: 'deleted', id, status: 'deleted' });
  });

  it('API keys: created, used by a signed call (the last-use write), disabled, rolled, deleted; an allowed address added and deleted', async () => {
    const key = await createKey(s['admin@acme.test']!, { name: 'Live', permissions: ['api_read'] });
    await arrives({ table: 'api-keys', kind: 'created', id: key.apiKey, status: 'active' });
    expect((await signedCall(t.app, key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    await arrives({ table: 'api-keys', kind: 'used', id: key.apiKey, status: 'active' });
    // a second call within the minute writes nothing, and announces nothing
    expect((await signedCall(t.app, key, 'GET', '/api/v1/partner/accounts')).statusCode).toBe(200);
    const disabled = await browser('admin@acme.test').put('/api/v1/partner/apikey', { apiKey: key.apiKey, status: 'disabled' }, as('admin@acme.test'));
    expect(disabled.statusCode, disabled.body).toBe(200);
    await arrives({ table: 'api-keys', kind: 'disabled', id: key.apiKey, status: 'disabled' });
    expect(acme.events.filter((e) => e.table === 'api-keys' && e.kind === 'used')).toHaveLength(1);
    const rolled = await browser('admin@acme.test').post(`/api/v1/partner/apikey/${key.apiKey}/roll`, {}, as('admin@acme.test'));
    expect(rolled.statusCode, rolled.body).toBe(200);
    await arrives({ table: 'api-keys', kind: 'rolled', id: key.apiKey });
    const deleted = await browser('admin@acme.test').delete(`/api/v1/partner/apikey/${key.apiKey}`, as('admin@acme.test'));
    expect(deleted.statusCode, deleted.body).toBe(200);
    await arrives({ table: 'api-keys', kind: 'deleted', id: key.apiKey, status: 'deleted' });

    const added = await browser('admin@acme.test').post(
      '/api/v1/partner/ip-address',
      { ipAddress: '203.0.113.7', otp: await code('admin@acme.test', { action: 'ip.add', target: { ipAddress: '203.0.113.7' } }) },
      as('admin@acme.test'),
    );
    expect(added.statusCode, added.body).toBe(201);
    await arrives({ table: 'api-keys', kind: 'ip_added', id: '203.0.113.7' });
    const gone = await browser('admin@acme.test').delete(
      `/api/v1/partner/ip-address?ipAddress=203.0.113.7&otp=${await code('admin@acme.test', { action: 'ip.delete', target: { ipAddress: '203.0.113.7' } })}`,
      as('admin@acme.test'),
    );
    expect(gone.statusCode, gone.body).toBe(200);
    await arrives({ table: 'api-keys', kind: 'ip_deleted', id: '203.0.113.7' });
  });

  it("the team: an invitation, a role change, an admin's password reset, a removal", async () => {
    const invited = await browser('admin@acme.test').post(
      '/api/v1/users/add',
      { name: 'Live Member', email: 'live@acme.test', role: 'view' },
      as('admin@acme.test'),
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const id = invited.json<{ user: { id: string } }>().user.id;
    await arrives({ table: 'team', kind: 'invited', id, status: 'invited' });
    const treasury = s['treasury@acme.test']!.user.id;
    expect((await browser('admin@acme.test').post('/api/v1/users/update', { userId: treasury, role: 'view' }, as('admin@acme.test'))).statusCode).toBe(200);
    await arrives({ table: 'team', kind: 'role_changed', id: treasury, status: 'view' });
    expect((await browser('admin@acme.test').post('/api/v1/user/reset-password', { userId: treasury }, as('admin@acme.test'))).statusCode).toBe(200);
    await arrives({ table: 'team', kind: 'password_reset', id: treasury });
    expect((await browser('admin@acme.test').put(`/api/v1/users/delete/${id}`, {}, as('admin@acme.test'))).statusCode).toBe(200);
    await arrives({ table: 'team', kind: 'removed', id, status: 'deleted' });
  });

  it("sent none of these to another partner's stream, which hears its own", async () => {
    const invited = await browser('admin@kora.test').post(
      '/api/v1/users/add',
      { name: 'Kora Member', email: 'member@kora.test', role: 'view' },
      as('admin@kora.test'),
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const id = invited.json<{ user: { id: string } }>().user.id;
    await expect.poll(() => kora.events.some((e) => e.table === 'team' && e.id === id), { timeout: 15_000, interval: 25 }).toBe(true);
    expect(kora.events.filter((e) => TOPICS.includes(e.table))).toEqual([expect.objectContaining({ table: 'team', kind: 'invited', id })]);
    for (const topic of TOPICS)
      expect(
        acme.events.some((e) => e.table === topic),
        topic,
      ).toBe(true);
    expect(acme.events.some((e) => e.id === id)).toBe(false);
  });
});
