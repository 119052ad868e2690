import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { createRateLimitRepository } from '../db/rate-limit.repository.ts';
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
