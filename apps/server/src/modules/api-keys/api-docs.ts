import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_HOURS, SIGNATURE_WINDOW_SECONDS } from '@portal/contract/api-keys';
import { API_PREFIX } from '../../lib/constants.ts';

/**
 * What /api/docs says about authentication: the two security schemes, the signing recipe, and examples in curl and
 * Node that a developer can paste. test/partner-api-docs.test.ts runs both examples against a server, so they
 * cannot drift from what the server checks.
 */

/** Signs and sends GET partner/accounts, then a POST with a body and an Idempotency-Key. Needs curl and openssl. */
export const CURL_EXAMPLE = `BASE_URL=https://portal.example.com   # where the portal runs
API_KEY=ak_...                         # the key id (API Keys page)
API_SECRET=sk_...                      # the secret, shown once when the key was created or rolled

# a read: no body, so the body hash is the SHA-256 of the empty string
METHOD=GET
REQUEST_PATH=${API_PREFIX}/partner/accounts
BODY=''
TIMESTAMP=$(date +%s)
BODY_SHA256=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIGNATURE=$(printf '%s' "$TIMESTAMP$METHOD$REQUEST_PATH$BODY_SHA256" | openssl dgst -sha256 -hmac "$API_SECRET" -r | cut -d' ' -f1)
curl -sS -X "$METHOD" "$BASE_URL$REQUEST_PATH" \\
  -H "X-Api-Key: $API_KEY" -H "X-Api-Timestamp: $TIMESTAMP" -H "X-Api-Signature: $SIGNATURE"

# a write: sign the exact bytes you send; a retry with the same Idempotency-Key never runs twice
METHOD=POST
REQUEST_PATH=${API_PREFIX}/partner/addresses
BODY='{"currency":"USDT","network":"TRC20"}'
TIMESTAMP=$(date +%s)
BODY_SHA256=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIGNATURE=$(printf '%s' "$TIMESTAMP$METHOD$REQUEST_PATH$BODY_SHA256" | openssl dgst -sha256 -hmac "$API_SECRET" -r | cut -d' ' -f1)
curl -sS -X "$METHOD" "$BASE_URL$REQUEST_PATH" \\
  -H "X-Api-Key: $API_KEY" -H "X-Api-Timestamp: $TIMESTAMP" -H "X-Api-Signature: $SIGNATURE" \\
  -H 'Content-Type: application/json' -H 'Idempotency-Key: usdt-trc20-address-1' \\
  --data-binary "$BODY"`;

/** The same in Node 18+ (fetch, node:crypto), as an ES module. */
export const NODE_EXAMPLE = `import crypto from 'node:crypto';

const BASE_URL = process.env.PORTAL_URL ?? 'https://portal.example.com';
const API_KEY = process.env.PORTAL_API_KEY; // ak_..., the key id
const API_SECRET = process.env.PORTAL_API_SECRET; // sk_..., shown once when the key was created or rolled

/** One signed call. For a POST, pass an idempotencyKey and reuse it when you retry the same request. */
export async function callPortal(method, path, body, idempotencyKey) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const bodySha256 = crypto.createHash('sha256').update(payload).digest('hex');
  const signature = crypto.createHmac('sha256', API_SECRET).update(timestamp + method + path + bodySha256).digest('hex');
  const headers = { 'X-Api-Key': API_KEY, 'X-Api-Timestamp': timestamp, 'X-Api-Signature': signature };
  if (payload) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const res = await fetch(BASE_URL + path, { method, headers, body: payload || undefined });
  const data = await res.json();
  if (!res.ok) throw new Error(\`\${res.status} \${data.code}: \${data.message} (request \${data.requestId})\`);
  return data;
}

const accounts = await callPortal('GET', '${API_PREFIX}/partner/accounts');
console.log(accounts.accounts);
const page = await callPortal('POST', '${API_PREFIX}/transactions/search', { table: 'payments', size: 5 });
console.log(page.total, 'payments');`;

export const API_DESCRIPTION = `The API behind the partner portal, and the partner API that your servers call.

## Authentication

Two ways in, to the same routes:

- **Bearer token** (\`bearerAuth\`): the portal's own calls, for a signed-in user. Its state-changing calls also carry
  a request-forgery token (\`POST ${API_PREFIX}/security/csrf\`).
- **API key** (\`apiKeyId\` + \`apiKeyTimestamp\` + \`apiKeySignature\`): server-to-server calls of the partner API. An
  admin creates a key on the portal's API Keys page and copies its secret, which is shown once. Operations marked
  with both schemes accept it; a key needs **api_read** for reads and **api_write** for changes.

### Signing a request with an API key

Send three headers:

| header | value |
|---|---|
| \`X-Api-Key\` | the key id, \`ak_...\` |
| \`X-Api-Timestamp\` | the current unix time in seconds |
| \`X-Api-Signature\` | lower-case hex HMAC-SHA256, keyed with the secret (\`sk_...\`), of \`timestamp + METHOD + path + sha256(body)\` |

- \`path\` is the request path with its query string, exactly as sent (\`${API_PREFIX}/partner/address?currencyNetwork=usdt-trc20\`).
- \`sha256(body)\` is the lower-case hex SHA-256 of the exact body bytes; with no body, of the empty string
  (\`e3b0c442...b855\`).
- The four parts are joined with nothing between them.
- A timestamp more than ${SIGNATURE_WINDOW_SECONDS} seconds from the server's clock is refused (\`ApiKeyTimestampInvalid\`).
- After a key is rolled, the old secret keeps working until the time chosen when rolling it.
- When the partner has allowed IP addresses, calls from any other address are refused (403 \`IpAddressNotAllowed\`,
  naming the address the server saw).

Refusals: 401 \`ApiKeyInvalid\` (unknown key), \`ApiKeySignatureInvalid\`, \`ApiKeyTimestampInvalid\`, \`ApiKeyDisabled\`,
\`ApiKeyExpired\`; 403 \`ApiKeyPermissionDenied\`, \`IpAddressNotAllowed\`. Every error is \`{ code, message, requestId }\`:
the \`code\` never changes, so branch on it; the \`message\` is for people, in English, or in French when the request
sends \`Accept-Language: fr\`.

### Rate limit

Each API key may make a number of calls per window (by default 1,000 a minute), counted across all of the
server's instances; the portal's own calls are not limited this way. Every counted reply carries:

| header | value |
|---|---|
| \`X-RateLimit-Limit\` | the calls a key may make in a window |
| \`X-RateLimit-Remaining\` | the calls left in the current window |
| \`X-RateLimit-Reset\` | seconds until the current window ends |

A call past the limit is refused with 429 \`TooManyRequests\` and a \`Retry-After\` header (seconds): wait that
long, then go on. Each key has its own count, so one busy integration does not hold up another key.

### Idempotency

Every POST of the partner API takes an optional \`Idempotency-Key\` header (1 to 255 visible ASCII characters, e.g. a
UUID). The first reply to a key is kept for ${IDEMPOTENCY_HOURS} hours: the same key with the same request replays it (same
status and body, header \`Idempotent-Replayed: true\`) and the change is never made twice, even for requests sent at the
same moment; the same key with a different request is a 422 \`IdempotencyKeyReused\`; while the first is still running,
a 409 \`IdempotencyKeyInProgress\`. Keys belong to your partner, whichever API key or user sends them.

### curl

\`\`\`sh
${CURL_EXAMPLE}
\`\`\`

### Node

\`\`\`js
${NODE_EXAMPLE}
\`\`\`
`;

export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A signed-in portal user's access token (15 minutes)." },
  apiKeyId: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The API key id, ak_...' },
  apiKeyTimestamp: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Timestamp',
    description: `Unix time in seconds, within ${SIGNATURE_WINDOW_SECONDS} s of the server's clock.`,
  },
  apiKeySignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Signature',
    description: "Hex HMAC-SHA256 with the key's secret of timestamp + METHOD + path (with query) + hex sha256(body).",
  },
} as const;

const seconds = (description: string) => ({ type: 'integer', description });
/** The refusal past a key's rate limit, as every partner-API operation documents it. */
const RATE_LIMITED = {
  description: 'Too many calls with this API key in the current window (see Rate limit).',
  type: 'object',
  properties: { code: { type: 'string', enum: ['TooManyRequests'] }, message: { type: 'string' }, requestId: { type: 'string' } },
  required: ['code', 'message', 'requestId'],
  headers: {
    'Retry-After': seconds('Seconds until the key may call again.'),
    'X-RateLimit-Limit': seconds('The calls a key may make in a window.'),
    'X-RateLimit-Remaining': seconds('The calls left in the current window: 0.'),
    'X-RateLimit-Reset': seconds('Seconds until the current window ends.'),
  },
};

type Security = Record<string, string[]>[];
const BEARER: Security = [{ bearerAuth: [] }];
/** What every operation that serves the partner's data says of its mode (issue 47). */
export const TEST_MODE_DOC =
  'Mode: live or test. A key made for test (ak_test_...), or the portal with `X-Portal-Mode: test`, reaches only the ' +
  "account's test data (sandbox-processed, never real money); a live key, or the portal otherwise, only its live data.";

const BEARER_OR_KEY: Security = [{ bearerAuth: [] }, { apiKeyId: [], apiKeyTimestamp: [], apiKeySignature: [] }];

/**
 * The zod-to-JSON transform, plus each operation's security: bearer or API key on the partner API (routes with
 * config `apiKey`, whose POSTs also document Idempotency-Key), none on the sign-in calls (tag `auth`), bearer on
 * every other API route.
 */
export const docsTransform: SwaggerTransform<FastifySchema & { hide?: boolean }> = (input) => {
  const out = jsonSchemaTransform(input);
  if (!input.url.startsWith(`${API_PREFIX}/`)) return out;
  // a route may have no schema at all (tests add some)
  const schema = { ...(out.schema ?? {}) } as FastifySchema & { tags?: string[]; security?: unknown; description?: string; headers?: unknown };
  const config = input.route.config as { apiKey?: string; testData?: boolean } | undefined;
  const permission = config?.apiKey;
  const methods = [input.route.method].flat();
  if (config?.testData) schema.description = `${schema.description ? `${schema.description}\n\n` : ''}${TEST_MODE_DOC}`;
  if (permission) {
    schema.security = BEARER_OR_KEY;
    schema.response = { ...(schema.response as Record<string, unknown> | undefined), 429: RATE_LIMITED };
    schema.description = `${schema.description ? `${schema.description}\n\n` : ''}Partner API: API keys with the \`${permission}\` permission may call it.`;
    if (methods.includes('POST') && !schema.headers) {
      schema.headers = {
        type: 'object',
        properties: {
          'Idempotency-Key': {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description: `Replays the first reply to this key for ${IDEMPOTENCY_HOURS} hours (see Idempotency).`,
          },
        },
      };
    }
  } else {
    schema.security = schema.tags?.includes('auth') ? [] : BEARER;
  }
  return { ...out, schema };
};
