import { z } from 'zod';
import { OtpCode } from './auth.ts';
import { IP_ADDRESS_MESSAGE, parseIpAddress } from './ip-address.ts';
import { safeText } from './validation.ts';

/** API keys (portal-core §3, §6, §7) and the partner API they sign (issue 11). */

export const API_KEY_PERMISSIONS = ['api_read', 'api_write', 'widget'] as const;
export const ApiKeyPermission = z.enum(API_KEY_PERMISSIONS);
export type ApiKeyPermission = z.infer<typeof ApiKeyPermission>;
export const API_KEY_PERMISSION_LABELS: Record<ApiKeyPermission, string> = { api_read: 'API read', api_write: 'API write', widget: 'Widget' };
/** What each permission lets a key do, as the create dialog explains it. */
export const API_KEY_PERMISSION_HELP: Record<ApiKeyPermission, string> = {
  api_read: 'Read balances, deposit addresses and transactions',
  api_write: 'Make changes, such as asking for a deposit address',
  widget: 'Use the public key in the embedded widget',
};

export const API_KEY_STATUSES = ['active', 'disabled'] as const;
export const ApiKeyStatus = z.enum(API_KEY_STATUSES);
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;
export const API_KEY_STATUS_LABELS: Record<ApiKeyStatus, string> = { active: 'Active', disabled: 'Inactive' };

/** Keys a partner may hold at once. */
export const MAX_API_KEYS = 25;
/** Allowed addresses and ranges a partner may hold. */
export const MAX_IP_ADDRESSES = 100;
/** After a roll, the old secret may keep working for at most this long (Stripe offers up to 7 days). */
export const MAX_ROLL_OVERLAP_MINUTES = 7 * 24 * 60;

/** The request headers of an API-key call; header names are case-insensitive. */
export const API_KEY_HEADER = 'x-api-key';
export const API_TIMESTAMP_HEADER = 'x-api-timestamp';
export const API_SIGNATURE_HEADER = 'x-api-signature';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A signed request is accepted this many seconds either side of the server's clock. */
export const SIGNATURE_WINDOW_SECONDS = 300;
/** How long the first reply to an Idempotency-Key is kept and replayed. */
export const IDEMPOTENCY_HOURS = 24;

/**
 * The mode a key is made for (Stripe's test mode): a live key reaches the partner's real data; a test key reaches only
 * its test data (balances, transactions, deposit addresses), processed by the sandbox, and can never move real money.
 */
export const API_KEY_MODES = ['live', 'test'] as const;
export const ApiKeyMode = z.enum(API_KEY_MODES);
export type ApiKeyMode = z.infer<typeof ApiKeyMode>;
export const API_KEY_MODE_LABELS: Record<ApiKeyMode, string> = { live: 'Live', test: 'Test' };

/**
 * The key id sent in X-Api-Key (not secret), the secret that signs, and the public key for the widget. Each names
 * its mode after its kind (ak_live_..., sk_test_..., pk_test_...); keys made before modes (ak_ and 32 hex digits) are
 * live.
 */
export const API_KEY_ID_PATTERN = /^ak_(?:(?:live|test)_)?[0-9a-f]{32}$/;
/** The mode a key id names. */
export const modeOfKeyId = (apiKey: string): ApiKeyMode => (apiKey.startsWith('ak_test_') ? 'test' : 'live');

/**
 * The text a request signature is the HMAC-SHA256 of, with the key's secret as the HMAC key: the timestamp (unix
 * seconds, as sent), the method in capitals, the request path with its query string exactly as sent, and the
 * lower-case hex SHA-256 of the body bytes (of the empty string when there is no body), joined with nothing.
 */
export const signingText = (parts: { timestamp: string; method: string; path: string; bodySha256: string }) =>
  `${parts.timestamp}${parts.method.toUpperCase()}${parts.path}${parts.bodySha256}`;

export const API_KEY_MESSAGES = {
  unknownKey: 'Unknown API key. Check the X-Api-Key header: it is the key id shown in the portal (ak_live_... or ak_test_...).',
  missingHeaders: 'An API-key call needs the X-Api-Key, X-Api-Timestamp and X-Api-Signature headers.',
  bothSchemes: 'Send either an API key or a bearer token, not both.',
  notAccepted: 'This endpoint does not accept API keys: it is for the portal only.',
  badSignature: "The signature does not match. Sign timestamp + method + path + sha256(body) with the key's secret (see /api/docs).",
  staleTimestamp: `The request timestamp is more than ${SIGNATURE_WINDOW_SECONDS} seconds away from the server's time. Send the current unix time in seconds and check the clock of the calling server.`,
  disabled: 'This API key is disabled. An admin can enable it again in the portal (API Keys).',
  expired: (at: string) => `This API key expired on ${at}. Create a new key in the portal (API Keys) and use it instead.`,
  partnerNotEnabled: 'API access is not enabled for this partner. Ask your account manager to enable API keys.',
  permission: (p: ApiKeyPermission) =>
    `This API key does not have the ${p} permission. Create a key with ${API_KEY_PERMISSION_LABELS[p]} to call this endpoint.`,
  ipNotAllowed: (ip: string) => `Requests from ${ip} are not allowed for this partner's API keys. Add the address under Allowed IP addresses in the portal.`,
  idempotencyReused: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Retry in a few seconds.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  rateLimited: (limit: number, windowSeconds: number, retryAfter: number) =>
    `Too many requests with this API key: at most ${limit} every ${windowSeconds} seconds. Retry after ${retryAfter} seconds (the Retry-After header).`,
  businessOnly: 'API keys are for business (B2B) partners.',
  notEnabled: 'API keys are not enabled for your business. Ask your account manager.',
  noSuchKey: 'No such API key',
  expiryPast: 'The expiry must be in the future.',
  tooManyKeys: `You can have at most ${MAX_API_KEYS} API keys. Delete one you no longer use.`,
  // the addresses a key may call from
  tooManyIpAddresses: `You can allow at most ${MAX_IP_ADDRESSES} addresses. Use a CIDR range for a block of addresses.`,
  ipAddressListed: (ipAddress: string) => `${ipAddress} is already on the list.`,
  ipAddressNotListed: (ipAddress: string) => `${ipAddress} is not on the list.`,
} as const;

/** The headers of every counted API-key call's reply: the window's limit, the calls left, seconds until it ends. */
export const RATE_LIMIT_HEADERS = { limit: 'x-ratelimit-limit', remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset' } as const;

/** A key as the portal lists it: never its secret. */
export const ApiKey = z.object({
  partnerId: z.string().uuid(),
  /** live or test: which of the partner's data the key reaches */
  mode: ApiKeyMode,
  /** the key id, sent in X-Api-Key */
  apiKey: z.string(),
  name: z.string(),
  status: ApiKeyStatus,
  permissions: z.array(ApiKeyPermission),
  /** the public key the widget uses */
  publicKey: z.string(),
  /** the last four characters of the current secret, so that a developer can tell which secret is deployed */
  secretHint: z.string(),
  /** when the key stops working; null: never */
  expiry: z.string().nullable(),
  /** the expiry has passed (by the server's clock): calls are refused with ApiKeyExpired */
  expired: z.boolean(),
  /** until when the secret before the last roll still works; null when it no longer does */
  previousSecretExpiresAt: z.string().nullable(),
  /** the last signed call that was accepted (recorded at most once a minute) */
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyListResponse = z.object({ apiKeys: z.array(ApiKey) });
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponse>;

/** The only replies that carry a secret: creating a key and rolling it. */
export const ApiKeyWithSecret = ApiKey.extend({ secretKey: z.string() });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;
export const ApiKeySecretResponse = z.object({ apiKey: ApiKeyWithSecret });
export type ApiKeySecretResponse = z.infer<typeof ApiKeySecretResponse>;
export const ApiKeyResponse = z.object({ apiKey: ApiKey });

export const CreateApiKeyRequest = z
  .object({
    name: safeText({ min: 1, max: 80, minMessage: 'Enter a name for the key' })
      .transform((s) => s.trim())
      .pipe(z.string().min(1, 'Enter a name for the key')),
    permissions: z
      .array(ApiKeyPermission)
      .min(1, 'Choose at least one permission')
      .max(API_KEY_PERMISSIONS.length)
      .refine((ps) => new Set(ps).size === ps.length, 'Each permission once'),
    /** when the key stops working (ISO 8601 with a time zone); absent or null: never */
    expiry: z.iso.datetime({ offset: true }).nullable().optional(),
    /** the data the key reaches: live (the default) or the partner's test data */
    mode: ApiKeyMode.default('live'),
  })
  .strict();
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;

export const UpdateApiKeyRequest = z.object({ apiKey: z.string().regex(API_KEY_ID_PATTERN, 'is not an API key id'), status: ApiKeyStatus }).strict();
export type UpdateApiKeyRequest = z.infer<typeof UpdateApiKeyRequest>;

export const ApiKeyParams = z.object({ apiKey: z.string().regex(API_KEY_ID_PATTERN, 'is not an API key id') });

export const RollApiKeyRequest = z
  .object({
    /** how long the current secret keeps working beside the new one: 0 ends it now */
    previousSecretMinutes: z.number().int().min(0).max(MAX_ROLL_OVERLAP_MINUTES).default(0),
  })
  .strict();
export type RollApiKeyRequest = z.input<typeof RollApiKeyRequest>;

/** The choices the roll dialog offers, as Stripe's does. */
export const ROLL_OVERLAP_CHOICES = [
  { minutes: 0, label: 'Now' },
  { minutes: 60, label: 'In 1 hour' },
  { minutes: 24 * 60, label: 'In 24 hours' },
  { minutes: 3 * 24 * 60, label: 'In 3 days' },
  { minutes: 7 * 24 * 60, label: 'In 7 days' },
] as const;

// ---- allowed IP addresses (portal-core §3, §5, §7)

/** An address or CIDR range, checked and written in its canonical form. */
export const IpAddressText = z
  .string()
  .max(60, IP_ADDRESS_MESSAGE)
  .transform((text, ctx) => {
    const parsed = parseIpAddress(text);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return parsed.value.canonical;
  });

export const IP_STATUS_LABEL = 'Whitelisted';

export const AllowedIpAddress = z.object({
  ipAddress: z.string(),
  /** always whitelisted: an address is on the list or not (portal-core §3) */
  status: z.literal('whitelisted'),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** which server it is, as the partner names it */
  label: z.string().nullish(),
});
export type AllowedIpAddress = z.infer<typeof AllowedIpAddress>;
export const IpAddressListResponse = z.object({ ipAddresses: z.array(AllowedIpAddress) });
export type IpAddressListResponse = z.infer<typeof IpAddressListResponse>;

export const AddIpAddressRequest = z.object({ ipAddress: IpAddressText, otp: OtpCode }).strict();
export type AddIpAddressRequest = z.input<typeof AddIpAddressRequest>;
export const IP_LABEL_MAX = 64;
/** An allowed address's label: trimmed, empty clears it. */
export const IpLabel = safeText({ max: IP_LABEL_MAX }).transform((t) => t.trim());
/**
 * PUT partner/ip-address: an allowed address becomes another (newIpAddress, the same to keep it) and/or gets a new
 * label (left out: unchanged; empty: none). The code is sent for this change.
 */
export const UpdateIpAddressRequest = z.object({ ipAddress: IpAddressText, newIpAddress: IpAddressText, label: IpLabel.optional(), otp: OtpCode }).strict();
export type UpdateIpAddressRequest = z.input<typeof UpdateIpAddressRequest>;
export const DeleteIpAddressQuery = z.object({ ipAddress: IpAddressText, otp: OtpCode }).strict();
export const IpAddressResponse = z.object({ ipAddress: AllowedIpAddress });
