import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_EVENTS_PATH } from '@portal/contract/payments';
import { AppError } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';

/** Seconds between two comments on an idle stream, so proxies and the browser keep it open. */
export const LIVE_HEARTBEAT_SECONDS = 15;

/**
 * GET events: the signed-in user's partner's changes as server-sent events (`event: change`, data a LiveEvent), for
 * the portal's open tables, payment details and balance. Authenticated like every call (bearer token); only the
 * partner of the token is subscribed, so another partner's change never reaches the stream. `event: resync` asks the
 * client to refetch everything (notifications may have been missed while this server's listener reconnected).
 */
export const liveEventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const closing = new Set<() => void>();
  // streams held per user on this server: a tab left open in many windows (or a loop) cannot hold sockets without end
  const open = new Map<string, number>();
  app.addHook('preClose', async () => {
    for (const end of closing) end();
  });
  app.get(
    LIVE_EVENTS_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      const { partnerId, userId } = authOf(request);
      const held = open.get(userId) ?? 0;
      if (held >= app.config.LIVE_STREAMS_PER_USER) throw new AppError(429, 'TooManyRequests', 'Too many open event streams: close other tabs of the portal and try again.');
      open.set(userId, held + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      // a client that reconnects waits this long (ms) at least
      res.write('retry: 2000\n\n');
      const unsubscribe = app.liveBus.subscribe(
        partnerId,
        (event) => void res.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`),
        () => void res.write('event: resync\ndata: {}\n\n'),
      );
      const heartbeat = setInterval(() => res.write(': ping\n\n'), LIVE_HEARTBEAT_SECONDS * 1000);
      heartbeat.unref();
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
      res.on('close', end);
      // the server closing ends every stream (the client reconnects to another instance)
      const onClose = () => res.end();
      closing.add(onClose);
      res.on('close', () => closing.delete(onClose));
    },
  );
};
