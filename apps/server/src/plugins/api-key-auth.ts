import crypto from 'node:crypto';
import net from 'node:net';
import { Transform, pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest, preParsingHookHandler, preValidationHookHandler } from 'fastify';
import {
  API_KEY_HEADER,
  API_KEY_ID_PATTERN,
  API_KEY_MESSAGES,
  API_SIGNATURE_HEADER,
  API_TIMESTAMP_HEADER,
  RATE_LIMIT_HEADERS,
  SIGNATURE_WINDOW_SECONDS,
  signingText,
  type ApiKeyPermission,
} from '@portal/contract/api-keys';
import { unmapIpv4 } from '@portal/contract/ip-address';
import { decrypt } from '../lib/keys.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../lib/errors.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import type { ApiKeyAuth } from '../lib/access.ts';
import { AUTH_CACHE_MS } from '../lib/constants.ts';
import { ALLOWED_IPS_CACHE, API_KEY_CACHE, type ApiKeyCallReads } from '../modules/api-keys/index.ts';
import { createRateLimitRepository } from '../db/rate-limit.repository.ts';
import type { ApiKeyCall, App } from '../types/app.ts';
import { createKeyLimiter, type KeyLimitOutcome } from './rate-limit.ts';

/** The last-used time of a key is written at most this often. */
export const LAST_USED_EVERY_MS = 60_000;

const EMPTY_SHA256 = crypto.createHash('sha256').digest('hex');

type CachedKey = {
  id: string;
  /** the partner whose data the key reaches: for a test key, the test partner (migration 0044) */
  partnerId: string;
  /** the account the key belongs to, its live partner: whose allowed addresses it obeys, whose screens hear of its use */
  accountId: string;
  apiKey: string;
  name: string;
  status: string;
  permissions: ApiKeyPermission[];
  expiresAt: number | null;
  /** the current secret, and the one before the last roll while it still works */
  secrets: { key: Buffer; until: number | null }[];
  /** the partner may use the API: B2B with API keys enabled */
  partnerEnabled: boolean;
  /** what request.auth becomes (made once per load: the same for every call with the key) */
  caller: ApiKeyAuth;
};

const NOTHING: { problem?: AppError; touch?: boolean } = Object.freeze({});

/**
 * API-key authentication of the partner API, a second way into the same routes. A call carries X-Api-Key (the key
 * id), X-Api-Timestamp (unix seconds) and X-Api-Signature: the hex HMAC-SHA256, with the key's secret, of
 * timestamp + method + path (with its query) + hex sha256(body). Only routes whose config names an `apiKey`
 * permission accept it; elsewhere the headers are refused. The headers are checked when the request arrives, the
 * body is hashed as it is read, and the key is verified before validation: signature (the current secret, or the
 * previous one until its time after a roll), then the key's status and expiry, the partner's access, the
 * partner's allowed addresses and the route's permission. The request-forgery check (browsers only) is skipped for
 * such a call: a request that carries the headers and fails here never reaches its handler.
 *
 * Decrypted keys and allowed-address lists are cached in process for AUTH_CACHE_MS (bounded), and dropped at once
 * on every instance through the cache bus when a key is disabled, enabled, rolled or deleted, or the list changes.
 */
export function registerApiKeyAuth(app: App, reads: ApiKeyCallReads) {
  app.decorateRequest('apiKeyCall', undefined);
  // the reads the composition root built (the API-keys module's port)
  const { keys: keysRepo, allowedIps: ipsRepo } = reads;
  const keys = new TtlCache<CachedKey | undefined>(AUTH_CACHE_MS, 10_000);
  const allowed = new TtlCache<net.BlockList | null>(AUTH_CACHE_MS, 10_000);
  app.cacheBus.attach(API_KEY_CACHE, keys);
  app.cacheBus.attach(ALLOWED_IPS_CACHE, allowed);
  const lastWritten = new Map<string, number>();
  const windowSeconds = app.config.API_KEY_RATE_WINDOW_SECONDS;
  const limiter = createKeyLimiter({
    repo: createRateLimitRepository(app.database.db),
    limit: app.config.API_KEY_RATE_LIMIT,
    windowMs: windowSeconds * 1000,
    prefix: 'api-key:',
  });

  /** The limit's headers on the reply; the refusal when the key's window is full. */
  const limited = (reply: FastifyReply, o: KeyLimitOutcome): AppError | undefined => {
    void reply.header(RATE_LIMIT_HEADERS.limit, o.limit).header(RATE_LIMIT_HEADERS.remaining, o.remaining).header(RATE_LIMIT_HEADERS.reset, o.resetSeconds);
    if (o.allowed) return undefined;
    void reply.header('retry-after', o.resetSeconds);
    return new AppError(429, 'TooManyRequests', API_KEY_MESSAGES.rateLimited(o.limit, windowSeconds, o.resetSeconds));
  };

  const loadKey = async (apiKey: string): Promise<CachedKey | undefined> => {
    const row = await keysRepo.findForCall(apiKey);
    if (!row) return undefined;
    const secretKey = (sealed: string) => Buffer.from(decrypt(app.keys.encryptionKey, sealed), 'utf8');
    const secrets: CachedKey['secrets'] = [{ key: secretKey(row.secret_enc), until: null }];
    if (row.previous_secret_enc && row.previous_secret_expires_at) {
      secrets.push({ key: secretKey(row.previous_secret_enc), until: row.previous_secret_expires_at.getTime() });
    }
    const permissions = row.permissions as ApiKeyPermission[];
    return {
      id: row.id,
      partnerId: row.partner_id,
      accountId: row.live_partner_id ?? row.partner_id,
      apiKey: row.api_key,
      name: row.name,
      status: row.status,
      permissions,
      expiresAt: row.expires_at?.getTime() ?? null,
      secrets,
      partnerEnabled: row.product_types.includes('B2B') && row.feature_flags.apiKeysManagementEnabled === true,
      caller: Object.freeze({
        kind: 'apiKey' as const,
        partnerId: row.partner_id,
        mode: row.live_partner_id === null ? ('live' as const) : ('test' as const),
        keyId: row.id,
        apiKey: row.api_key,
        name: row.name,
        permissions: Object.freeze([...permissions]) as ApiKeyPermission[],
      }),
    };
  };

  const loadAllowed = async (partnerId: string): Promise<net.BlockList | null> => {
    const addresses = await ipsRepo.addresses(partnerId);
    if (addresses.length === 0) return null;
    const list = new net.BlockList();
    for (const text of addresses) {
      const [address = '', prefix] = text.split('/');
      const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
    }
    return list;
  };

  /** Refusals that do not depend on the key: only what the headers say. Undefined when the call may go on. */
  const headerProblem = (request: FastifyRequest, apiKey: unknown, timestamp: unknown, signature: unknown): AppError | undefined => {
    if (!request.routeOptions.config.apiKey) return unauthorized(API_KEY_MESSAGES.notAccepted);
    if (typeof apiKey !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
      return unauthorized(API_KEY_MESSAGES.missingHeaders, 'ApiKeyInvalid');
    if (request.headers.authorization !== undefined) return badRequest(API_KEY_MESSAGES.bothSchemes);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - app.clock() / 1000) > SIGNATURE_WINDOW_SECONDS) {
      return unauthorized(API_KEY_MESSAGES.staleTimestamp, 'ApiKeyTimestampInvalid');
    }
    if (!API_KEY_ID_PATTERN.test(apiKey)) return unauthorized(API_KEY_MESSAGES.unknownKey, 'ApiKeyInvalid');
    if (!/^[0-9a-fA-F]{64}$/.test(signature)) return unauthorized(API_KEY_MESSAGES.badSignature, 'ApiKeySignatureInvalid');
    return undefined;
  };

  // on every route (instance hooks run before a route's own, so the request-forgery check sees the mark): a request
  // with none of the headers passes at once; one with them is checked and marked, or refused
  app.addHook('onRequest', (request, _reply, done) => {
    const h = request.headers;
    const apiKey = h[API_KEY_HEADER];
    const timestamp = h[API_TIMESTAMP_HEADER];
    const signature = h[API_SIGNATURE_HEADER];
    if (apiKey === undefined && timestamp === undefined && signature === undefined) return done();
    if (request.is404) return done(); // the 404 answers
    const problem = headerProblem(request, apiKey, timestamp, signature);
    if (problem) return done(problem);
    request.apiKeyCall = { apiKey: apiKey as string, timestamp: timestamp as string, signature: Buffer.from(signature as string, 'hex') };
    done();
  });

  /** Whether one of the key's secrets that still works signed this text. */
  const signedBy = (key: CachedKey, text: string, signature: Buffer, now: number) => {
    for (const secret of key.secrets) {
      if (secret.until !== null && secret.until <= now) continue;
      if (crypto.timingSafeEqual(crypto.createHmac('sha256', secret.key).update(text).digest(), signature)) return true;
    }
    return false;
  };

  /**
   * The verified caller of a signed call, or the refusal; the key and the address list must be loaded. A use is
   * recorded at most once a minute per key: `touch` says when it is due.
   */
  const verify = (
    request: FastifyRequest,
    call: ApiKeyCall,
    key: CachedKey | undefined,
    list: net.BlockList | null,
    permission: ApiKeyPermission,
  ): { problem?: AppError; touch?: boolean } => {
    if (!key) return { problem: unauthorized(API_KEY_MESSAGES.unknownKey, 'ApiKeyInvalid') };
    const now = app.clock();
    const text = signingText({ timestamp: call.timestamp, method: request.method, path: request.url, bodySha256: call.bodySha256 ?? EMPTY_SHA256 });
    if (!signedBy(key, text, call.signature, now)) return { problem: unauthorized(API_KEY_MESSAGES.badSignature, 'ApiKeySignatureInvalid') };
    if (key.status !== 'active') return { problem: unauthorized(API_KEY_MESSAGES.disabled, 'ApiKeyDisabled') };
    if (key.expiresAt !== null && key.expiresAt <= now)
      return { problem: unauthorized(API_KEY_MESSAGES.expired(new Date(key.expiresAt).toISOString()), 'ApiKeyExpired') };
    if (!key.partnerEnabled) return { problem: forbidden(API_KEY_MESSAGES.partnerNotEnabled) };
    if (list) {
      const ip = clientAddress(request);
      if (!list.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4')) return { problem: new AppError(403, 'IpAddressNotAllowed', API_KEY_MESSAGES.ipNotAllowed(ip)) };
    }
    if (!key.permissions.includes(permission)) return { problem: forbidden(API_KEY_MESSAGES.permission(permission), 'ApiKeyPermissionDenied') };
    request.auth = key.caller;
    if (now - (lastWritten.get(key.id) ?? 0) < LAST_USED_EVERY_MS) return NOTHING;
    lastWritten.set(key.id, now);
    return { touch: true };
  };

  /** Records the key's use (at most once a minute), and announces it to the partner's open API-keys screen. */
  const touchKey = (key: CachedKey) => {
    const now = new Date(app.clock());
    return keysRepo.touchLastUsed(key.partnerId, key.id, now, (trx) =>
      app.liveBus.publish(trx, { partnerId: key.accountId, table: 'api-keys', kind: 'used', id: key.apiKey, status: key.status, at: now.toISOString() }),
    );
  };

  // the partner API's routes (config `apiKey`) get the body hash and the verification as their own hooks, so that
  // no other route pays for them; both answer at once (no promise) when nothing needs loading
  app.addHook('onRoute', (route) => {
    const permission = route.config?.apiKey;
    if (!permission) return;
    const hashBody: preParsingHookHandler = (request, _reply, payload, done) => {
      const call = request.apiKeyCall;
      if (!call || request.method === 'GET' || request.method === 'HEAD') return done(null, payload);
      const hash = crypto.createHash('sha256');
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, next) {
          hash.update(chunk);
          next(null, chunk);
        },
        flush(next) {
          call.bodySha256 = hash.digest('hex');
          next();
        },
      });
      done(
        null,
        pipeline(payload, tap, () => undefined),
      );
    };
    const verifyCall: preValidationHookHandler = (request, reply, done) => {
      const call = request.apiKeyCall;
      if (!call) return done();
      const cachedKey = keys.peek(call.apiKey);
      const cachedList = cachedKey?.value ? allowed.peek(cachedKey.value.accountId) : undefined;
      if (cachedKey && (!cachedKey.value || cachedList)) {
        const { problem, touch } = verify(request, call, cachedKey.value, cachedList?.value ?? null, permission);
        if (problem) return done(problem);
        // the key's share of its window is usually held in memory: then the limit costs no promise
        const counted = limiter.check(cachedKey.value!.id, app.clock());
        if (!touch && !(counted instanceof Promise)) return done(limited(reply, counted));
        return void (async () => {
          const refused = limited(reply, await counted);
          if (refused) throw refused;
          if (touch) await touchKey(cachedKey.value!);
        })().then(() => done(), done);
      }
      void (async () => {
        const key = await keys.get(call.apiKey, () => loadKey(call.apiKey));
        const list = key ? await allowed.get(key.accountId, () => loadAllowed(key.accountId)) : null;
        const { problem, touch } = verify(request, call, key, list, permission);
        if (problem) throw problem;
        const refused = limited(reply, await limiter.check(key!.id, app.clock()));
        if (refused) throw refused;
        if (touch) await touchKey(key!);
      })().then(() => done(), done);
    };
    route.preParsing = [hashBody, ...hooksOf(route.preParsing)];
    route.preValidation = [verifyCall, ...hooksOf(route.preValidation)];
  });
}

/** A route option's hooks as a list (one, several or none), to add to. */
export const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** The caller's address: the socket's, or what a configured trusted proxy says (TRUST_PROXY), IPv4 unmapped. */
export const clientAddress = (request: FastifyRequest) => unmapIpv4(request.ip);
