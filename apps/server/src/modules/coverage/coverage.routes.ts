import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChannelsResponse, CoverageQuery, NetworksResponse } from '@portal/contract/coverage';
import { callerOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { CoverageService } from './coverage.service.ts';


/** Coverage reference data (portal-core §7: GET channels, GET networks), also part of the partner API (api_read). */
export const coverageRoutes: FastifyPluginAsyncZod<{ service: CoverageService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'coverage', errors: [400, 401] });

  app.get(
    '/channels',
    {
      config: { apiKey: 'api_read' },
      schema: {
        operationId: 'channels',
        summary: 'Active channels: how money comes into and goes out of each country (limits, fees, settlement time)',
        querystring: CoverageQuery,
        response: { 200: ChannelsResponse },
      },
    },
    async (request) => service.channels(callerOf(request), request.query),
  );

  app.get(
    '/networks',
    {
      config: { apiKey: 'api_read' },
      schema: {
        operationId: 'networks',
        summary: 'Active payment networks (mobile-money operators and banks) with the account number each takes and the channels that reach it',
        querystring: CoverageQuery,
        response: { 200: NetworksResponse },
      },
    },
    async (request) => service.networks(callerOf(request), request.query),
  );
};
