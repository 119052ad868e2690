import { z } from 'zod';
import { OtpCode } from './auth.ts';
import { SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from './domain.ts';

/**
 * Signed webhooks (portal-core §3, §5, §7). Deliveries follow the Standard Webhooks specification: headers
 * `webhook-id` (the event's id, the same on every retry), `webhook-timestamp` (unix seconds of the attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the endpoint's `whsec_` secret.
 */

/** What the events are about: collections and payments carry the transaction states, settlements their own. */
export const WEBHOOK_EVENT_GROUPS = [
  { object: 'COLLECTION', label: 'Collections', states: TRANSACTION_STATUSES },
  { object: 'PAYMENT', label: 'Payments', states: TRANSACTION_STATUSES },
  { object: 'SETTLEMENT', label: 'Settlements', states: SETTLEMENT_STATUSES },
] as const;

type Group = (typeof WEBHOOK_EVENT_GROUPS)[number];
type EventOf<G extends Group> = `${G['object']}.${Uppercase<G['states'][number]>}`;
export type WebhookEventType = EventOf<Group>;

/** Every event a webhook can subscribe to: `<OBJECT>.<STATE>`, e.g. COLLECTION.COMPLETE, PAYMENT.FAILED, SETTLEMENT.COMPLETE. */
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_GROUPS.flatMap((g) => g.states.map((s) => `${g.object}.${s.toUpperCase()}`)) as [
  WebhookEventType,
  ...WebhookEventType[],
];
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/** The event a "send test event" delivers, to the one endpoint it was asked for, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'WEBHOOK.TEST';

/** The event type of a transaction object reaching a state: eventType('SETTLEMENT', 'complete') → SETTLEMENT.COMPLETE. */
export const webhookEventType = (object: Group['object'], state: string): WebhookEventType => {
  const type = `${object}.${state.toUpperCase()}`;
  return WebhookEventType.parse(type);
};

/** Endpoints a partner may have (as Stripe). */
export const MAX_WEBHOOKS = 16;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** The longest part of a receiver's reply kept with an attempt. */
export const WEBHOOK_RESPONSE_SNIPPET_MAX = 500;
/** A receiver has this long to answer an attempt. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;

export const WEBHOOK_MESSAGES = {
  notEnabled: 'Webhooks are not enabled for your account.',
  businessOnly: 'Webhooks are available to business (B2B) partners.',
  notFound: 'Webhook not found.',
  deliveryNotFound: 'Webhook delivery not found.',
  tooMany: `You can have at most ${MAX_WEBHOOKS} webhooks. Delete one first.`,
  invalidUrl: 'Enter a valid URL starting with https:// or http://',
  httpsRequired: 'Use an https:// URL.',
  privateTarget: 'This URL points to a private, loopback or link-local address. Use an address reachable from the internet.',
  unresolvable: 'The host of this URL could not be found.',
  noEvents: 'Choose at least one event.',
  tooManySends: 'Too many test events and resends. Wait a minute and try again.',
  stillAttempting: 'This delivery is still being attempted. Resend it once it has succeeded or failed.',
} as const;

/** An http(s) URL without a fragment; production also needs https and a public address (checked by the server). */
export const WebhookUrl = z
  .string()
  .trim()
  .max(WEBHOOK_URL_MAX)
  .pipe(z.url({ protocol: /^https?$/, error: WEBHOOK_MESSAGES.invalidUrl }))
  .refine((value) => !value.includes('#'), WEBHOOK_MESSAGES.invalidUrl);

const Events = z
  .array(WebhookEventType)
  .min(1, WEBHOOK_MESSAGES.noEvents)
  .transform((events) => [...new Set(events)]);

/** Healthy, or failing since a delivery ran out of retries (or was refused for good); the next success heals it. */
export const WEBHOOK_STATES = ['healthy', 'failing'] as const;
export const WebhookState = z.enum(WEBHOOK_STATES);

/** A webhook endpoint (portal-core §3: id, url, state, active, partnerId, createdAt; and what it subscribes to). */
export const Webhook = z.object({
  id: z.string().uuid(),
  partnerId: z.string().uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEventType),
  /** deliveries are sent only while active (a paused endpoint records nothing) */
  active: z.boolean(),
  state: WebhookState,
  failingSince: z.string().nullable(),
  /** after a secret roll: until when (ISO, UTC) deliveries are signed with the old secret too; null when not */
  previousSecretExpiresAt: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhooksResponse = z.object({ webhooks: z.array(Webhook) });
export type WebhooksResponse = z.infer<typeof WebhooksResponse>;
export const WebhookResponse = z.object({ webhook: Webhook });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const CreateWebhookRequest = z.object({
  url: WebhookUrl,
  events: Events,
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  otp: OtpCode,
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

/** The new endpoint and its signing secret, which is shown this once and never again. */
export const CreatedWebhookResponse = z.object({ webhook: Webhook, secret: z.string().startsWith('whsec_') });
export type CreatedWebhookResponse = z.infer<typeof CreatedWebhookResponse>;

/** Changes one endpoint: any of url, events, description (empty clears it), active. */
export const UpdateWebhookRequest = z.object({
  id: z.string().uuid(),
  url: WebhookUrl.optional(),
  events: Events.optional(),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  active: z.boolean().optional(),
  otp: OtpCode,
});
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequest>;

export const WebhookIdParams = z.object({ id: z.string().uuid() });

/** After a secret roll, the old secret may keep signing beside the new one for at most this long (7 days). */
export const MAX_WEBHOOK_ROLL_OVERLAP_MINUTES = 7 * 24 * 60;
/** The choices the roll dialog offers. */
export const WEBHOOK_ROLL_OVERLAP_CHOICES = [
  { minutes: 0, label: 'Now' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
  { minutes: MAX_WEBHOOK_ROLL_OVERLAP_MINUTES, label: '7 days' },
] as const;

/**
 * Rolls an endpoint's signing secret (admin, e-mailed code): a new secret, shown once; the old one keeps signing
 * beside it (both signatures in `webhook-signature`) for the chosen minutes, 0 ends it now.
 */
export const RollWebhookSecretRequest = z
  .object({
    previousSecretMinutes: z.number().int().min(0).max(MAX_WEBHOOK_ROLL_OVERLAP_MINUTES).default(0),
    otp: OtpCode,
  })
  .strict();
export type RollWebhookSecretRequest = z.input<typeof RollWebhookSecretRequest>;
/** The endpoint and its new signing secret, shown this once. */
export const RolledWebhookSecretResponse = z.object({ webhook: Webhook, secret: z.string().startsWith('whsec_') });
export type RolledWebhookSecretResponse = z.infer<typeof RolledWebhookSecretResponse>;
export const DeleteWebhookQuery = z.object({ otp: OtpCode });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** One request to the receiver: when, what it answered (or why there was no answer), how long it took. */
export const WebhookAttempt = z.object({
  attemptedAt: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  responseSnippet: z.string().nullable(),
  /** why no usable answer came: a timeout, a refused connection, a refused address */
  error: z.string().nullable(),
  /** automatic (the first try and its scheduled retries) or manual (a resend) */
  trigger: z.enum(['automatic', 'manual']),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** An event's delivery to one endpoint, with its attempts (the webhook activity list). */
export const WebhookDelivery = z.object({
  id: z.string().uuid(),
  webhookId: z.string().uuid(),
  url: z.string(),
  /** the `webhook-id` header: the event's id, the same on every attempt */
  eventId: z.string(),
  eventType: z.string(),
  payload: z.record(z.string(), z.unknown()),
  status: DeliveryStatus,
  /** why a delivery stopped without an attempt (its endpoint was paused) */
  note: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attempts: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** GET partner/activity?type=webhook: deliveries newest first, optionally of one endpoint or one status. */
export const WebhookActivityQuery = z.object({
  type: z.literal('webhook'),
  webhookId: z.string().uuid().optional(),
  status: DeliveryStatus.optional(),
  startIndex: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type WebhookActivityQuery = z.input<typeof WebhookActivityQuery>;

export const WebhookActivityResponse = z.object({ activities: z.array(WebhookDelivery), total: z.number().int() });
export type WebhookActivityResponse = z.infer<typeof WebhookActivityResponse>;

export const DeliveryIdParams = z.object({ id: z.string().uuid() });
export const DeliveryResponse = z.object({ delivery: WebhookDelivery });
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

/** The body every delivery carries (Standard Webhooks' recommended shape, with the event id). */
export type WebhookPayload = { id: string; type: string; timestamp: string; data: Record<string, unknown> };
