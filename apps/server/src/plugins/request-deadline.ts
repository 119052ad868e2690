import type { FastifyInstance } from 'fastify';
import { OUTAGE_MESSAGE } from '../db/outage.ts';
import { AppError } from '../lib/errors.ts';

/**
 * No API call waits longer than `seconds` for its answer. A call that has started none by then (its database cut off
 * or failing over, a connection lost without a goodbye, a lock held) is answered 503 with Retry-After, as an outage
 * is, while its work goes on or fails by itself. A change either commits or not: a withdrawal or a payment sent
 * again with its sequenceId gets the first one's answer and books nothing. Never cut: a call whose answer has started
 * (the live stream, a download), a partner-API change holding an Idempotency-Key (its key must keep its own
 * answer; a 503 here would give the key back while the change may still commit), and a route marked `deadline: false`
 * (the PDF statement, bounded by its entry cap and its gate: a large one takes some seconds of CPU, not of waiting).
 */
export function registerRequestDeadline(app: FastifyInstance, seconds: number) {
  if (!(seconds > 0)) return;
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config.deadline === false) return done();
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
      // a partner-API change that claimed its Idempotency-Key keeps it until its own answer, which the key then replays
      if (request.idempotencyClaim) return;
      request.log.warn({ seconds }, 'no answer within the deadline: answered 503');
      // the error handler adds Retry-After to a ServiceUnavailable
      void reply.send(new AppError(503, 'ServiceUnavailable', OUTAGE_MESSAGE));
    }, seconds * 1000);
    timer.unref();
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}
