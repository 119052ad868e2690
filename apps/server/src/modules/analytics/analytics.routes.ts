import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnalyticsQuery, AnalyticsReply } from '@portal/contract/analytics';
import { callerOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { AnalyticsService } from './analytics.service.ts';

/** The Overview's figures. The partner comes from the session or the API key; every role reads them, as the tables. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ service: AnalyticsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'analytics', errors: [400, 401, 403] });

  app.get(
    '/partner/analytics',
    {
      config: { apiKey: 'api_read', fairShare: true, testData: true },
      schema: {
        operationId: 'partnerAnalytics',
        summary:
          'Volumes, success rates, balance and completion times of a period of days in a time zone, per wallet, from the rows the transaction tables show',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsReply },
      },
    },
    async (request) => service.overview(callerOf(request).partnerId, request.query),
  );
};
