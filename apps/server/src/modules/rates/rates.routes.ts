import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PartnerRatesResponse, RateChangeRequest, RateReviewRequest, RateStatusResponse } from '@portal/contract/rates';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { RatesService } from './rates.service.ts';

/** Enabled countries: the partner's rates and their four-eyes changes (portal-core §7: GET, PUT partner/rates). */
export const rateRoutes: FastifyPluginAsyncZod<{ service: RatesService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'rates', errors: [400, 401, 403, 404, 409] });

  app.get(
    '/partner/rates',
    {
      schema: {
        operationId: 'partnerRates',
        summary: "The partner's country rates (crypto, USD and US rows left out) with each one's status and any pending change",
        response: { 200: PartnerRatesResponse },
      },
    },
    async (request) => service.list(authOf(request)),
  );

  app.put(
    '/partner/rates',
    {
      schema: {
        operationId: 'requestRateChanges',
        summary: 'Ask to enable or disable countries (admin): each becomes pending_enable or pending_disable until another admin reviews it',
        body: RateChangeRequest,
        response: { 200: RateStatusResponse },
      },
    },
    async (request) => service.request(authOf(request), request.body),
  );

  app.put(
    '/partner/rates/review',
    {
      schema: {
        operationId: 'reviewRateChanges',
        summary:
          "Approve or deny pending country changes (admin; approval by another admin than the one who asked): each item's status is the rate's new status to approve, its previous one to deny",
        body: RateReviewRequest,
        response: { 200: RateStatusResponse },
      },
    },
    async (request) => service.review(authOf(request), request.body),
  );
};
