import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api.ts';

/**
 * A typed client of the partner API. Its types are generated from the server's OpenAPI document by openapi-typescript
 * (src/api.ts, kept equal to the document by a test); its calls are made by openapi-fetch, through a fetch that signs
 * each request with the API key and retries what may be retried. Runs wherever fetch and WebCrypto do (Node 20+,
 * Deno, Bun, browsers: but a secret key belongs on a server).
 */

export type { paths } from './api.ts';
export { verifyWebhook, WebhookVerificationError, type VerifiedWebhook, type WebhookHeaders } from './webhooks.ts';

export type PortalClientOptions = {
  /** the portal's address, e.g. https://portal.example.com (the API is under /api/v1) */
  baseUrl: string;
  /** the key id: ak_test_... for test data, ak_live_... for live data */
  apiKey: string;
  /** the key's secret (sk_...), which signs each request and is never sent */
  secret: string;
  /** how many times a call is tried again after a network error, a 429 or a 5xx (default 3) */
  retries?: number;
  /** the first wait before trying again, doubled each time, when the reply names no Retry-After (default 500 ms) */
  retryDelayMs?: number;
  /** the fetch to send with (default globalThis.fetch) */
  fetch?: (request: Request) => Promise<Response>;
  /** the clock, in ms (tests) */
  now?: () => number;
};

export type PortalClient = Client<paths>;

/** Replies worth trying again: the server was busy, or failed before it could answer for the request. */
const RETRYABLE = new Set([429, 500, 502, 503, 504]);
/** The server is still working on the first request with this Idempotency-Key: ask again shortly. */
const IN_PROGRESS = 'IdempotencyInProgress';
const encoder = new TextEncoder();

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The request's signature: hex HMAC-SHA256, with the key's secret, of timestamp + METHOD + path with its query +
 * hex SHA-256 of the body (the server's rule, /api/docs "Authentication").
 */
export async function signRequest(secret: string, parts: { timestamp: string; method: string; pathWithQuery: string; body: string }): Promise<string> {
  const bodyHash = hex(await crypto.subtle.digest('SHA-256', encoder.encode(parts.body)));
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const text = `${parts.timestamp}${parts.method.toUpperCase()}${parts.pathWithQuery}${bodyHash}`;
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/** Seconds a reply asks to wait (Retry-After in seconds), or undefined. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value) * 1000;
}

async function worthRetrying(response: Response): Promise<boolean> {
  if (RETRYABLE.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: string } | undefined;
  return body?.code === IN_PROGRESS;
}

/**
 * A fetch that signs every request anew (a fresh timestamp on each try), gives each POST an Idempotency-Key (kept
 * across its tries, so that a retry can never make a second payment: the server replays the first reply), and tries
 * again after a network error, a 429 (after its Retry-After), a 5xx, or an idempotent request still in progress.
 */
export function signingFetch(options: PortalClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retries = options.retries ?? 3;
  const firstDelay = options.retryDelayMs ?? 500;
  const now = options.now ?? Date.now;
  return async (request) => {
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? '' : await request.clone().text();
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    if (method === 'POST' && !headers.has('idempotency-key')) headers.set('idempotency-key', crypto.randomUUID());
    headers.set('x-api-key', options.apiKey);
    for (let attempt = 0; ; attempt++) {
      const timestamp = String(Math.floor(now() / 1000));
      headers.set('x-api-timestamp', timestamp);
      headers.set('x-api-signature', await signRequest(options.secret, { timestamp, method, pathWithQuery: `${url.pathname}${url.search}`, body }));
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await send(new Request(url, { method, headers, ...(body ? { body } : {}) }));
      } catch (err) {
        if (last) throw err;
        await sleep(firstDelay * 2 ** attempt);
        continue;
      }
      if (last || !(await worthRetrying(response))) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response) ?? firstDelay * 2 ** attempt);
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The partner API's client: `client.GET('/api/v1/partner/accounts')`, `client.POST('/api/v1/partner/disbursement',
 * { body })`, each typed by the OpenAPI document (paths, parameters, bodies and replies).
 */
export function createPortalClient(options: PortalClientOptions): PortalClient {
  return createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: signingFetch(options) });
}
