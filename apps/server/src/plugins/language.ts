import type { FastifyInstance } from 'fastify';
import { inRequestLanguage, localize, requestLanguage } from '../lib/language.ts';

/**
 * Every route's handler runs in its request's language (for the e-mails it causes: lib/language.ts mailLanguage), and
 * a confirmation a route answers (`{ message }`) is translated on its way out. Error bodies are translated by the
 * error handler, which every failure passes through.
 */
export function registerLanguage(app: FastifyInstance): void {
  // after the body is read (reading it would leave the scope), before the route's own hooks and its handler
  app.addHook('preHandler', (request, _reply, done) => inRequestLanguage(requestLanguage(request), done));
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode >= 400 || !isMessageReply(payload)) return payload;
    const language = requestLanguage(request);
    return language === 'en' ? payload : { ...payload, message: localize(language, payload.message) };
  });
}

const isMessageReply = (payload: unknown): payload is { message: string } =>
  typeof payload === 'object' && payload !== null && !Array.isArray(payload) && typeof (payload as { message?: unknown }).message === 'string';
