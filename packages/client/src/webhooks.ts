/**
 * Verifying the portal's webhooks (Standard Webhooks): each delivery carries `webhook-id`, `webhook-timestamp` (unix
 * seconds) and `webhook-signature`, one or more `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` separated by spaces
 * (two while an endpoint's secret is being rolled). The secret is the endpoint's `whsec_...`, shown when it is made.
 */

export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export type VerifiedWebhook<T = unknown> = { id: string; timestamp: number; payload: T };

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** How far a delivery's timestamp may be from the receiver's clock, either way (replays of old messages are refused). */
const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Compares two strings in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The delivery's payload when one of its signatures is the endpoint secret's and its timestamp is recent; else a
 * WebhookVerificationError that says why. `body` is the request body exactly as received (not parsed and re-written).
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  options: { toleranceSeconds?: number; now?: () => number } = {},
): Promise<VerifiedWebhook<T>> {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError('webhook-timestamp is not unix seconds');
  const timestamp = Number(timestampText);
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is too far from now: an old message replayed, or a wrong clock');
  }
  const keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = bytesToBase64(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`)));
  const matches = signatures
    .split(' ')
    .map((s) => s.trim())
    .some((s) => s.startsWith('v1,') && sameText(s.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('no signature matches the secret: check the endpoint secret and that the body is the raw body');
  return { id, timestamp, payload: JSON.parse(body) as T };
}
