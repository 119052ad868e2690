import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createPortalClient, signingFetch, signRequest, verifyWebhook, WebhookVerificationError } from './index.ts';

const KEY = { apiKey: `ak_test_${'a'.repeat(32)}`, secret: 'sk_test_secret' };
const NOW = 1_800_000_000_000;

/** The server's rule, written apart from the client's: hex HMAC-SHA256 of timestamp + METHOD + path + hex sha256(body). */
const serverSignature = (secret: string, timestamp: string, method: string, path: string, body: string) =>
  crypto
    .createHmac('sha256', secret)
    .update(`${timestamp}${method}${path}${crypto.createHash('sha256').update(body).digest('hex')}`)
    .digest('hex');

/** A fetch that answers from a list, one reply per request, and keeps what it was sent. */
function scripted(replies: (() => Response | Promise<Response>)[]) {
  const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies');
    return reply();
  };
  return { fetch, sent };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('signed calls', () => {
  it('signs as the server checks: the timestamp, the method, the path with its query and the body hash', async () => {
    const signature = await signRequest(KEY.secret, { timestamp: '1800000000', method: 'post', pathWithQuery: '/api/v1/x?a=1', body: '{"b":2}' });
    expect(signature).toBe(serverSignature(KEY.secret, '1800000000', 'POST', '/api/v1/x?a=1', '{"b":2}'));
  });

  it('sends the key, a fresh timestamp and the signature of what it sends, through the typed client', async () => {
    const { fetch, sent } = scripted([() => json(200, { partner: { id: crypto.randomUUID(), name: 'Acme' }, accounts: [] })]);
    const client = createPortalClient({ baseUrl: 'https://portal.example.com/', ...KEY, fetch, now: () => NOW });
    const { data } = await client.GET('/api/v1/channels', { params: { query: { country: 'KE' } } });
    expect(data).toBeDefined();
    const [call] = sent;
    expect(call!.url).toBe('https://portal.example.com/api/v1/channels?country=KE');
    expect(call!.headers.get('x-api-key')).toBe(KEY.apiKey);
    expect(call!.headers.get('x-api-timestamp')).toBe(String(NOW / 1000));
    expect(call!.headers.get('x-api-signature')).toBe(serverSignature(KEY.secret, String(NOW / 1000), 'GET', '/api/v1/channels?country=KE', ''));
    // a read needs no idempotency key
    expect(call!.headers.has('idempotency-key')).toBe(false);
  });

  it('retries a POST after a 503 and a network error with the same Idempotency-Key, signing each try anew', async () => {
    let now = NOW;
    const { fetch, sent } = scripted([
      () => json(503, { code: 'ServiceUnavailable' }),
      () => Promise.reject(new TypeError('fetch failed')),
      () => json(201, { payment: { id: 'p1' } }),
    ]);
    const send = signingFetch({ baseUrl: '', ...KEY, fetch, retryDelayMs: 1, now: () => (now += 1000) });
    const body = JSON.stringify({ amount: '1500' });
    const res = await send(new Request('https://portal.example.com/api/v1/partner/disbursement', { method: 'POST', body }));
    expect(res.status).toBe(201);
    expect(sent).toHaveLength(3);
    const keys = sent.map((s) => s.headers.get('idempotency-key'));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    for (const s of sent) {
      expect(s.body).toBe(body);
      const ts = s.headers.get('x-api-timestamp')!;
      expect(s.headers.get('x-api-signature')).toBe(serverSignature(KEY.secret, ts, 'POST', '/api/v1/partner/disbursement', body));
    }
    expect(new Set(sent.map((s) => s.headers.get('x-api-timestamp'))).size).toBe(3);
  });

  it('keeps an Idempotency-Key the caller gave, and waits what a 429 asks before trying again', async () => {
    const { fetch, sent } = scripted([() => json(429, { code: 'TooManyRequests' }, { 'retry-after': '0' }), () => json(200, {})]);
    // a first wait of a minute: the test ends at once only if Retry-After (0 s) is what it waited
    const send = signingFetch({ baseUrl: '', ...KEY, fetch, retryDelayMs: 60_000 });
    const res = await send(new Request('https://p.example/api/v1/partner/addresses', { method: 'POST', body: '{}', headers: { 'idempotency-key': 'mine-1' } }));
    expect(res.status).toBe(200);
    expect(sent.map((s) => s.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
  });

  it('asks again while the first request with the key is in progress, and never retries a refusal', async () => {
    const inProgress = scripted([() => json(409, { code: 'IdempotencyInProgress' }), () => json(201, {})]);
    expect(
      (
        await signingFetch({ baseUrl: '', ...KEY, fetch: inProgress.fetch, retryDelayMs: 1 })(
          new Request('https://p.example/x', { method: 'POST', body: '{}' }),
        )
      ).status,
    ).toBe(201);
    for (const status of [400, 401, 403, 404, 409]) {
      const refused = scripted([() => json(status, { code: 'Whatever' }), () => json(200, {})]);
      const res = await signingFetch({ baseUrl: '', ...KEY, fetch: refused.fetch, retryDelayMs: 1 })(
        new Request('https://p.example/x', { method: 'POST', body: '{}' }),
      );
      expect(res.status).toBe(status);
      expect(refused.sent).toHaveLength(1);
    }
  });

  it('gives up after its retries with the last reply, or the last network error', async () => {
    const busy = scripted(Array.from({ length: 3 }, () => () => json(502, {})));
    expect((await signingFetch({ baseUrl: '', ...KEY, fetch: busy.fetch, retries: 2, retryDelayMs: 1 })(new Request('https://p.example/x'))).status).toBe(502);
    expect(busy.sent).toHaveLength(3);
    const down = scripted(Array.from({ length: 2 }, () => () => Promise.reject(new TypeError('fetch failed'))));
    await expect(signingFetch({ baseUrl: '', ...KEY, fetch: down.fetch, retries: 1, retryDelayMs: 1 })(new Request('https://p.example/x'))).rejects.toThrow(
      'fetch failed',
    );
  });
});

describe('webhook verification', () => {
  const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
  const id = 'evt_0123456789abcdef0123456789abcdef';
  const body = JSON.stringify({ id, type: 'PAYMENT.COMPLETE', data: { id: 'p1', status: 'complete' } });
  const timestamp = Math.floor(NOW / 1000);
  /** As the server signs: v1, base64 HMAC-SHA256 of "id.timestamp.body" with the secret's bytes. */
  const sign = (s: string, text = body, ts = timestamp) =>
    `v1,${crypto
      .createHmac('sha256', Buffer.from(s.slice('whsec_'.length), 'base64'))
      .update(`${id}.${ts}.${text}`)
      .digest('base64')}`;
  const headers = (signature: string, ts = timestamp) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature });
  const now = () => NOW;

  it('accepts a delivery signed with the secret, as a plain record of headers or a Headers', async () => {
    const verified = await verifyWebhook<{ type: string }>(secret, headers(sign(secret)), body, { now });
    expect(verified).toEqual({ id, timestamp, payload: JSON.parse(body) as unknown });
    expect((await verifyWebhook(secret, new Headers(headers(sign(secret))), body, { now })).id).toBe(id);
  });

  it('agrees with the Standard Webhooks library both ways', async () => {
    // on the real clock: the library reads it
    const library = new Webhook(secret);
    const at = Math.floor(Date.now() / 1000);
    const signature = library.sign(id, new Date(at * 1000), body);
    expect((await verifyWebhook(secret, headers(signature, at), body)).id).toBe(id);
    expect(library.verify(body, headers(sign(secret, body, at), at))).toEqual(JSON.parse(body));
  });

  it('accepts either signature during a secret roll', async () => {
    const old = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    expect((await verifyWebhook(old, headers(`${sign(secret)} ${sign(old)}`), body, { now })).id).toBe(id);
  });

  it('refuses another body, another secret, an old or future timestamp, and missing headers, saying why', async () => {
    const other = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    const refusals: [Record<string, string>, string, RegExp][] = [
      [headers(sign(secret)), body.replace('complete', 'failed'), /no signature matches/],
      [headers(sign(other)), body, /no signature matches/],
      [headers(sign(secret, body, timestamp - 301), timestamp - 301), body, /too far from now/],
      [headers(sign(secret, body, timestamp + 301), timestamp + 301), body, /too far from now/],
      [{ 'webhook-id': id, 'webhook-timestamp': String(timestamp) }, body, /missing/],
      [headers(sign(secret).replace('v1,', 'v2,')), body, /no signature matches/],
    ];
    for (const [h, b, why] of refusals) {
      const attempt = verifyWebhook(secret, h, b, { now });
      await expect(attempt).rejects.toBeInstanceOf(WebhookVerificationError);
      await expect(attempt).rejects.toThrow(why);
    }
  });
});
