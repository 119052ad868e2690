import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageResponse } from '@portal/contract/auth';
import { ActiveSessionsResponse, SecurityHistoryQuery, SecurityHistoryResponse, SessionIdParams } from '@portal/contract/security';
import { requestCtx } from '../../lib/request-ctx.ts';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { SessionsService } from '../auth/index.ts';
import type { SecurityService } from './security.service.ts';

/**
 * The security screen: GET security-history (admins: the team's; everyone else: their own), and the caller's own
 * sessions, GET me/sessions and DELETE me/sessions/{sessionId}.
 */
export const securityRoutes: FastifyPluginAsyncZod<{ service: SecurityService; sessions: SessionsService }> = async (app, { service, sessions }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'security', errors: [400, 401, 403, 404, 409] });

  app.get(
    '/security-history',
    {
      schema: {
        operationId: 'securityHistory',
        summary:
          "Who did what, newest first, a page at a time: sign-ins and their failures (with address and browser), sessions, passwords, two-step verification, the team, API keys, IP addresses, webhooks, wallets, withdrawals, countries, settings. Admins read the team's and may filter by person; everyone else reads their own",
        querystring: SecurityHistoryQuery,
        response: { 200: SecurityHistoryResponse },
      },
    },
    async (request) => service.history(authOf(request), request.query),
  );

  app.get(
    '/me/sessions',
    {
      schema: {
        operationId: 'mySessions',
        summary: "The caller's open sessions: browser, address, when opened and last seen; the one of this request is marked current",
        response: { 200: ActiveSessionsResponse },
      },
    },
    async (request) => ({ sessions: await sessions.listOwn(authOf(request)) }),
  );

  app.delete(
    '/me/sessions/:sessionId',
    {
      schema: {
        operationId: 'endMySession',
        summary: 'End another of the caller’s sessions at once (its open screens are told); the current one is ended by signing out',
        params: SessionIdParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await sessions.endOwn(authOf(request), request.params.sessionId, requestCtx(request));
      return { message: 'Session ended' };
    },
  );
};
