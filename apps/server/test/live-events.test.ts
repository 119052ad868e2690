import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@portal/contract/live';
import { startPaymentWorker } from '../src/jobs/payment-processing.ts';
import type { App } from '../src/app.ts';
import { readEvents } from './sse.ts';
import { DATABASES, setup, signIn, twoInstances, type TestContext } from './harness.ts';

/** An open event stream as the portal holds it: the events received so far, and how to close it. */
async function openStream(app: App, token: string, lastEventId?: string) {
  const address = app.server.address() as AddressInfo;
  const events: LiveEvent[] = [];
  /** the `id:` of each change, in the order received */
  const ids: string[] = [];
  let resyncs = 0;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: address.port, path: '/api/v1/events', headers }, resolve);
    req.on('error', reject);
  });
  readEvents(res, (e) => {
    if (e.type === 'resync') resyncs++;
    if (e.type === 'change' && e.data) {
      events.push(JSON.parse(e.data) as LiveEvent);
      ids.push(e.id ?? '');
    }
  });
  return { status: res.statusCode, type: res.headers['content-type'], events, ids, resyncs: () => resyncs, close: () => res.destroy() };
}

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function kenyaMomo(t: TestContext) {
  const channelId = (await t.database.db.selectFrom('channels').select('id').where('country', '=', 'KE').where('ramp_type', '=', 'withdraw').where('channel_type', '=', 'momo').executeTakeFirstOrThrow()).id;
  const networkId = (await t.database.db.selectFrom('payment_networks').select('id').where('country', '=', 'KE').where('code', '=', 'MPESA').executeTakeFirstOrThrow()).id;
  return (amount: string) => ({ country: 'KE', channelId, networkId, accountNumber: '+254712345678', recipient: { name: 'Amina Juma' }, amount, sequenceId: crypto.randomUUID() });
}

describe.each(DATABASES)('the live event stream on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { jobs: true, config: { LOGIN_RATE_LIMIT: '10000', PAYMENT_STEP_SECONDS: '0' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await startPaymentWorker({ boss: t.app.boss!, db: t.database.db, live: t.app.liveBus, stepSeconds: 0, log: t.app.log, now: t.app.clock });
  });
  afterAll(async () => t?.close());

  it('holds at most LIVE_STREAMS_PER_USER streams of one user open', async () => {
    const viewer = await signIn(t, 'viewer@acme.test');
    const streams = [];
    for (let i = 0; i < 20; i++) streams.push(await openStream(t.app, viewer.accessToken));
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    const refused = await openStream(t.app, viewer.accessToken);
    expect(refused.status).toBe(429);
    refused.close();
    streams.pop()!.close();
    await waitFor(() => false, 200).catch(() => undefined);
    const again = await openStream(t.app, viewer.accessToken);
    expect(again.status).toBe(200);
    for (const s of [...streams, again]) s.close();
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/events' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'Unauthorized' });
  });

  it("delivers every state of the partner's payment, in order, and never another partner's", async () => {
    const kora = await signIn(t, 'admin@kora.test');
    const acme = await signIn(t, 'admin@acme.test');
    const koraStream = await openStream(t.app, kora.accessToken);
    const acmeStream = await openStream(t.app, acme.accessToken);
    try {
      expect(koraStream.status).toBe(200);
      expect(koraStream.type).toMatch(/^text\/event-stream/);
      const body = (await kenyaMomo(t))('1001');
      const res = await kora.browser.post('/api/v1/partner/disbursement', body, { token: kora.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ payment: { id: string } }>().payment.id;
      await waitFor(() => koraStream.events.filter((e) => e.id === id).length === 4);
      expect(koraStream.events.filter((e) => e.id === id).map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'failed']);
      expect(koraStream.events[0]).toMatchObject({ table: 'payments', kind: 'disbursement' });
      // acme's own change reaches acme's stream: by then kora's, had it leaked, would be there too
      const own = await acme.browser.post('/api/v1/partner/disbursement', body, { token: acme.accessToken });
      const ownId = own.json<{ payment: { id: string } }>().payment.id;
      await waitFor(() => acmeStream.events.some((e) => e.id === ownId && e.status === 'failed'));
      expect(acmeStream.events.filter((e) => e.id === id)).toEqual([]);
      expect(koraStream.events.filter((e) => e.id === ownId)).toEqual([]);
    } finally {
      koraStream.close();
      acmeStream.close();
    }
  });

  it('sends a stream that comes back with Last-Event-ID what it missed, once each, in order, and only its partner\'s', async () => {
    const kora = await signIn(t, 'admin@kora.test');
    const acme = await signIn(t, 'admin@acme.test');
    const pay = await kenyaMomo(t);
    const first = await openStream(t.app, kora.accessToken);
    const seenId = (await kora.browser.post('/api/v1/partner/disbursement', pay('1001'), { token: kora.accessToken })).json<{ payment: { id: string } }>().payment.id;
    await waitFor(() => first.events.filter((e) => e.id === seenId).length === 4);
    expect(first.ids.every((id) => /^\d+$/.test(id))).toBe(true);
    expect(new Set(first.ids).size).toBe(first.ids.length);
    const last = first.ids.at(-1)!;
    first.close();

    // while the stream is away: one of kora's payments goes through its states, and one of acme's
    const acmeStream = await openStream(t.app, acme.accessToken);
    const missedId = (await kora.browser.post('/api/v1/partner/disbursement', pay('1001'), { token: kora.accessToken })).json<{ payment: { id: string } }>().payment.id;
    const acmeId = (await acme.browser.post('/api/v1/partner/disbursement', pay('1001'), { token: acme.accessToken })).json<{ payment: { id: string } }>().payment.id;
    await waitFor(() => acmeStream.events.filter((e) => e.id === acmeId).length === 4);
    const lastOfAcme = acmeStream.ids.at(-1)!;
    acmeStream.close();
    await waitFor(() => false, 300).catch(() => undefined); // kora's last state is committed by now (acme's came after)

    // the last event the stream saw is gone from the log, as a transaction lost in a failover is (the stream heard it
    // by NOTIFY from the old primary): the replay still starts from there
    await t.database.db.deleteFrom('live_events').where('id', '=', Number(last)).execute();
    const back = await openStream(t.app, kora.accessToken, last);
    try {
      await waitFor(() => back.events.filter((e) => e.id === missedId).length === 4);
      expect(back.events.filter((e) => e.id === missedId).map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'failed']);
      // the overlap replays nothing already seen, and nothing of another partner
      expect(back.ids).not.toContain(last);
      expect(new Set(back.ids).size).toBe(back.ids.length);
      expect(back.events.filter((e) => e.id === acmeId)).toEqual([]);
      expect(back.ids.map(Number)).toEqual([...back.ids.map(Number)].sort((x, y) => x - y));
      expect(back.resyncs()).toBe(0);
    } finally {
      back.close();
    }

    // another partner's event id, or one past the log's end, replays only this partner's events
    for (const foreign of [lastOfAcme, '999999999']) {
      const stray = await openStream(t.app, kora.accessToken, foreign);
      try {
        await waitFor(() => false, 300).catch(() => undefined);
        expect(stray.events.filter((e) => e.id === acmeId)).toEqual([]);
      } finally {
        stray.close();
      }
    }
    // an id before anything the log has of the partner tells nothing: the stream asks for a refetch
    const before = await openStream(t.app, kora.accessToken, '0');
    try {
      await waitFor(() => before.resyncs() === 1);
      expect(before.events).toEqual([]);
    } finally {
      before.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the live event stream on two instances', () => {
  let pair: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    pair = await twoInstances({ jobs: true, config: { LOGIN_RATE_LIMIT: '10000', PAYMENT_STEP_SECONDS: '0' } });
    for (const i of [pair.a, pair.b]) await i.app.listen({ port: 0, host: '127.0.0.1' });
    // only the first instance processes payments: the second hears of them through the database
    await startPaymentWorker({ boss: pair.a.app.boss!, db: pair.a.database.db, live: pair.a.app.liveBus, stepSeconds: 0, log: pair.a.app.log, now: pair.a.app.clock });
  });
  afterAll(async () => pair?.close());

  it('both instances deliver every change, whichever made it', async () => {
    const kora = await signIn(pair.a, 'admin@kora.test');
    const acme = await signIn(pair.b, 'admin@acme.test');
    const onA = await openStream(pair.a.app, kora.accessToken);
    const onB = await openStream(pair.b.app, kora.accessToken);
    const acmeOnB = await openStream(pair.b.app, acme.accessToken);
    try {
      const body = (await kenyaMomo(pair.a))('1000');
      // made on the second instance, processed by the first
      const koraOnB = await signIn(pair.b, 'admin@kora.test');
      const res = await koraOnB.browser.post('/api/v1/partner/disbursement', body, { token: koraOnB.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ payment: { id: string } }>().payment.id;
      for (const stream of [onA, onB]) {
        await waitFor(() => stream.events.filter((e) => e.id === id).length === 4);
        expect(stream.events.filter((e) => e.id === id).map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'complete']);
      }
      expect(acmeOnB.events).toEqual([]);
    } finally {
      onA.close();
      onB.close();
      acmeOnB.close();
    }
  });

  it('a stream that left one instance resumes on the other from its Last-Event-ID, missing nothing', async () => {
    const kora = await signIn(pair.a, 'admin@kora.test');
    const onA = await openStream(pair.a.app, kora.accessToken);
    const pay = await kenyaMomo(pair.a);
    const firstId = (await kora.browser.post('/api/v1/partner/disbursement', pay('1000'), { token: kora.accessToken })).json<{ payment: { id: string } }>().payment.id;
    await waitFor(() => onA.events.filter((e) => e.id === firstId).length === 4);
    const last = onA.ids.at(-1)!;
    onA.close();
    const missedId = (await kora.browser.post('/api/v1/partner/disbursement', pay('1000'), { token: kora.accessToken })).json<{ payment: { id: string } }>().payment.id;
    // opened after the payment was created: it sees the later states, the last of which ends the payment
    const watcher = await openStream(pair.a.app, kora.accessToken);
    await waitFor(() => watcher.events.some((e) => e.id === missedId && e.status === 'complete'));
    watcher.close();
    const onB = await openStream(pair.b.app, kora.accessToken, last);
    try {
      await waitFor(() => onB.events.filter((e) => e.id === missedId).length === 4);
      expect(onB.events.filter((e) => e.id === missedId).map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'complete']);
      // at least once: what came shortly before the last id seen may come again (ids commit out of order), never the last
      expect(onB.ids).not.toContain(last);
      expect(new Set(onB.ids).size).toBe(onB.ids.length);
    } finally {
      onB.close();
    }
  });
});
