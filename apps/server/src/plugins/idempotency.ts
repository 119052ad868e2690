import crypto from 'node:crypto';
import { API_KEY_MESSAGES, IDEMPOTENCY_HEADER, IDEMPOTENCY_HOURS } from '@portal/contract/api-keys';
import type { FastifyReply, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { createIdempotencyRepository } from '../db/idempotency.repository.ts';
import { AppError, badRequest } from '../lib/errors.ts';
import { hooksOf } from './api-key-auth.ts';
import { callerOf } from './auth.ts';
import type { App } from '../types/app.ts';

/**
 * The status and header of a create that names its own sequence (a payment's or a withdrawal's sequenceId): 201 for
 * what it made now, 200 with `idempotent-replayed: true` for the first result of the same sequenceId, as a replayed
 * Idempotency-Key answers. Gives back the body, for the handler to return.
 */
export function createdOrReplayed<T>(reply: FastifyReply, replayed: boolean, body: T): T {
  if (replayed) void reply.header('idempotent-replayed', 'true');
  void reply.code(replayed ? 200 : 201);
  return body;
}

/** A claim whose request never finished (its server stopped) may be taken over after this long. */
export const IDEMPOTENCY_LOCK_MS = 5 * 60_000;

/** Object keys sorted at every level, so that the same body written in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on every POST of the partner API (routes with config `apiKey`), for either kind of caller, as
 * Stripe does: the first request with a key claims it (one atomic insert, so two parallel requests never both run)
 * and its reply (status and body) is kept for IDEMPOTENCY_HOURS; the same key with the same request (method, path and
 * body) replays that reply with `Idempotent-Replayed: true`; with another request it is a 422; while the first still
 * runs, a 409. Keys belong to the partner. A request refused before it runs (authentication, validation) claims
 * nothing; a reply of 500 or more gives the key back, so that a retry may run.
 */
export function registerIdempotency(app: App) {
  app.decorateRequest('idempotencyClaim', undefined);
  const repo = createIdempotencyRepository(app.database.db);

  const claim: preHandlerAsyncHookHandler = async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) throw badRequest(API_KEY_MESSAGES.idempotencyKeyInvalid);
    const { partnerId } = callerOf(request);
    const fingerprint = crypto
      .createHash('sha256')
      .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
      .digest('hex');
    const now = app.clock();
    const token = crypto.randomUUID();
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await repo.claim({
        partnerId,
        key,
        fingerprint,
        token,
        now: new Date(now),
        lockedUntil: new Date(now + IDEMPOTENCY_LOCK_MS),
        expiresAt: new Date(now + IDEMPOTENCY_HOURS * 3_600_000),
      });
      if (claimed) {
        request.idempotencyClaim = { partnerId, key, token };
        return;
      }
      const first = await repo.find(partnerId, key);
      if (!first) continue; // removed in between (expired and cleaned): claim again
      if (first.fingerprint !== fingerprint) throw new AppError(422, 'IdempotencyKeyReused', API_KEY_MESSAGES.idempotencyReused);
      if (first.status_code === null) throw new AppError(409, 'IdempotencyKeyInProgress', API_KEY_MESSAGES.idempotencyInProgress);
      return reply
        .code(first.status_code)
        .header('idempotent-replayed', 'true')
        .type(first.content_type ?? 'application/json; charset=utf-8')
        .send(first.response_body ?? '');
    }
    throw new AppError(409, 'IdempotencyKeyInProgress', API_KEY_MESSAGES.idempotencyInProgress);
  };

  const keep: onSendAsyncHookHandler = async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    if (reply.statusCode >= 500 || body === undefined) {
      await repo.release(held.partnerId, held.key, held.token);
    } else {
      const contentType = reply.getHeader('content-type');
      await repo.complete(held.partnerId, held.key, held.token, {
        statusCode: reply.statusCode,
        body,
        contentType: typeof contentType === 'string' ? contentType : null,
      });
    }
    return payload;
  };

  // only the POSTs of the partner API carry the hooks: no other route pays for them
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST') || !(route.config as { apiKey?: string } | undefined)?.apiKey) return;
    route.preHandler = [claim, ...hooksOf(route.preHandler)];
    route.onSend = [keep, ...hooksOf(route.onSend)];
  });
}

export { canonicalJson };
