import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StartResponse } from '@portal/contract/start';
import { requestLanguage } from '../../lib/language.ts';
import { authOf } from '../../plugins/auth.ts';
import { csrfSessionOf } from '../../plugins/csrf.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { StartService } from './start.service.ts';

/**
 * The signed-in portal's start data (GET partner/start), with a request-forgery token for this session (the cookie is
 * set as POST security/csrf sets it): the one call a screen waits for before it draws its data.
 */
export const startRoutes: FastifyPluginAsyncZod<{ service: StartService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'partner', errors: [401, 403] });

  app.get(
    '/partner/start',
    {
      config: { testData: true },
      schema: {
        operationId: 'start',
        summary:
          "What every signed-in screen reads at start: the partner and its flags, balances, banners' data, notifications, preferences and a request-forgery token",
        response: { 200: StartResponse },
      },
    },
    async (request, reply) => {
      // (stored in no cache, as every API reply: security-headers.ts)
      const data = await service.start(authOf(request), requestLanguage(request));
      return { ...data, csrf: reply.generateCsrf({ userInfo: csrfSessionOf(request) }) };
    },
  );
};
