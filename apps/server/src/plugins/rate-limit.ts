import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { createRateLimitRepository, type RateLimitRepository } from '../db/rate-limit.repository.ts';
import type { App } from '../types/app.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit with its counters in the database: several server instances on one database share them.
 * Routes opt in with `config.rateLimit`; the key is the route and the caller's address.
 */
export async function registerRateLimit(app: App) {
  const repo = createRateLimitRepository(app.database.db);
  class DatabaseStore {
    incr(key: string, cb: Callback, timeWindow: number) {
      const now = new Date();
      repo.hit(key, timeWindow, now).then(
        (r) => cb(null, { current: r.hits, ttl: Math.max(0, r.window_ends.getTime() - now.getTime()) }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }
    child() {
      return this;
    }
  }
  await app.register(fastifyRateLimit, {
    global: false,
    store: DatabaseStore,
    keyGenerator: (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? request.url}|${request.ip}`,
  });
}

/** A route's config for @fastify/rate-limit: at most `max` calls a minute from one address, then 429 with this message. */
export function perMinute(max: number, message: string) {
  return { rateLimit: { max, timeWindow: '1 minute', errorResponseBuilder: () => new AppError(429, 'TooManyRequests', message) } };
}

/** What a call's limit says: whether it may go on, and the figures its reply carries. */
export type KeyLimitOutcome = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

/**
 * At most this many calls are taken from the shared counter at once (the share an instance holds). A share is 1/50th
 * of the limit, so what an instance may leave unspent in a window stays within 2% of the limit; at the default limit
 * (1,000 a minute) a share is 20 calls. A key whose limit is raised for a heavy integration takes larger shares, up to
 * this many: one counter write per 500 calls instead of per 20.
 */
export const KEY_LIMIT_SHARE_MAX = 500;

/**
 * A fixed-window limit per key that holds across instances without a database write per call: an instance takes a
 * share of the window's calls from the shared counter (`hit` with a count: 1/50th of the limit, at most
 * KEY_LIMIT_SHARE_MAX) and spends it in memory, and takes another when it is spent. The counter counts what was
 * taken, so all instances together never serve more than the limit in a window (a share taken and not spent is lost
 * for the window: the limit errs on the refusing side by at most a share per instance). Once the window is full an
 * instance refuses locally until the window ends (calls cannot be given back). Remaining is what the counter said
 * when the share was taken, less what was spent since: other instances' calls since then are not in it.
 */
export function createKeyLimiter(deps: { repo: Pick<RateLimitRepository, 'hit'>; limit: number; windowMs: number; prefix: string }) {
  const { repo, limit, windowMs } = deps;
  const share = Math.max(1, Math.min(KEY_LIMIT_SHARE_MAX, Math.ceil(limit / 50)));
  /** per key: when the window ends, the calls of the share left, and the window's count as of now */
  const held = new Map<string, { ends: number; left: number; used: number }>();
  const outcome = (allowed: boolean, used: number, ends: number, now: number): KeyLimitOutcome => ({
    allowed,
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil((ends - now) / 1000)),
  });

  /** Spends one call of the key's share when it holds one (no promise); undefined when the counter must be asked. */
  function spendHeld(id: string, now: number): KeyLimitOutcome | undefined {
    const h = held.get(id);
    if (!h || h.ends <= now) return undefined;
    if (h.left > 0) {
      h.left -= 1;
      h.used += 1;
      return outcome(true, h.used, h.ends, now);
    }
    // the window is full: refused until it ends, without asking
    if (h.used >= limit) return outcome(false, limit, h.ends, now);
    return undefined;
  }

  /** a share being taken, per key: calls that arrive meanwhile wait for it instead of taking their own */
  const taking = new Map<string, Promise<KeyLimitOutcome>>();

  async function take(id: string, now: number): Promise<KeyLimitOutcome> {
    const pending = taking.get(id);
    if (pending) {
      await pending.catch(() => undefined);
      return spendHeld(id, now) ?? take(id, now);
    }
    const started = takeShare(id, now).finally(() => taking.delete(id));
    taking.set(id, started);
    return started;
  }

  async function takeShare(id: string, now: number): Promise<KeyLimitOutcome> {
    const r = await repo.hit(`${deps.prefix}${id}`, windowMs, new Date(now), share);
    const ends = new Date(r.window_ends).getTime();
    const before = r.hits - share;
    const granted = Math.max(0, Math.min(share, limit - before));
    if (held.size > 10_000) for (const [k, h] of held) if (h.ends <= now) held.delete(k);
    if (granted === 0) {
      held.set(id, { ends, left: 0, used: limit });
      return outcome(false, limit, ends, now);
    }
    held.set(id, { ends, left: granted - 1, used: before + 1 });
    return outcome(true, before + 1, ends, now);
  }

  return {
    /** One call of the key: at once from the share held, or a promise when a new share must be taken. */
    check(id: string, now: number): KeyLimitOutcome | Promise<KeyLimitOutcome> {
      return spendHeld(id, now) ?? take(id, now);
    },
  };
}
