import crypto from 'node:crypto';

/**
 * Standard Webhooks signing: the secret is `whsec_` + base64 of random bytes; a message is signed as
 * `v1,` + base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<body>")).
 */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret (32 random bytes). */
export const newWebhookSecret = () => `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`;

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-id` of an event: its uuid, as `evt_` and 32 hex digits. */
export const webhookMessageId = (eventId: string) => `evt_${eventId.replace(/-/g, '')}`;

/**
 * The `webhook-signature` header: the current secret's signature, and during a roll's overlap the previous secret's
 * too, separated by a space (Standard Webhooks: a receiver accepts the message when any one of them verifies).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}
