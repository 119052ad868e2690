import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { FAIR_SHARE_MESSAGE } from '@portal/contract/errors';
import { turnsPerKey } from '../lib/concurrency-gate.ts';
import { AppError } from '../lib/errors.ts';

/**
 * A fair share of the instance's database connections per partner. On the routes marked `fairShare` (the money-moving
 * and heavy ones: searches and exports, statements, withdrawals, payments, reports) a partner has at most
 * `perPartner` requests running at once on an instance; its next ones wait their turn in the order they came, at
 * most `waitSeconds`, and are then answered 429 with Retry-After. With `perPartner` below the pool's size, one
 * partner's burst leaves connections for the others: their requests never wait behind it. 0 turns it off.
 */
export function registerFairShare(app: FastifyInstance, { perPartner, waitSeconds }: { perPartner: number; waitSeconds: number }) {
  if (!(perPartner > 0)) return;
  const turns = turnsPerKey({ perKey: perPartner, waitMs: waitSeconds * 1000, queue: 200 });
  const takeTurn: preHandlerAsyncHookHandler = async (request, reply) => {
    const partnerId = request.auth?.partnerId;
    if (!partnerId) return;
    const leave = await turns.enter(partnerId);
    if (!leave) {
      void reply.header('retry-after', '2');
      throw new AppError(429, 'TooManyRequests', FAIR_SHARE_MESSAGE);
    }
    // the turn is given back when the answer is sent, or the client goes
    reply.raw.once('close', leave);
    reply.raw.once('finish', leave);
  };
  // only the marked routes take turns: the others pay nothing for it
  app.addHook('onRoute', (route) => {
    if (!route.config?.fairShare) return;
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [...existing, takeTurn];
  });
}
