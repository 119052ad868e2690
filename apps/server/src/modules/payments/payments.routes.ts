import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CollectionRequest,
  DisbursementRequest,
  PaymentIdParams,
  PaymentMarketsResponse,
  PaymentQuote,
  PaymentQuoteQuery,
  PaymentResponse,
  SANDBOX_DOCS,
} from '@portal/contract/payments';
import { callerOf } from '../../plugins/auth.ts';
import { createdOrReplayed } from '../../plugins/idempotency.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { PaymentService } from './payments.service.ts';

const write = { apiKey: 'api_write', testData: true } as const;
const moving = { ...write, fairShare: true } as const;
const read = { apiKey: 'api_read', testData: true } as const;

/** Collections and disbursements (portal-core §7), from the portal and the partner API. */
export const paymentRoutes: FastifyPluginAsyncZod<{ service: PaymentService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'payments', errors: [400, 401, 403, 404, 409] });
  // access (role or key permission, the partner's kind and flag) before the body or the query is looked at
  const initiation = (access: 'read' | 'write') => ({
    preValidation: async (request: FastifyRequest) => service.requireInitiation(callerOf(request), access),
  });

  app.get(
    '/partner/payments/markets',
    {
      config: read,
      ...initiation('read'),
      schema: {
        operationId: 'paymentMarkets',
        summary: 'The markets (country and currency) the partner may pay in: its enabled countries, the only ones a quote or a payment accepts',
        response: { 200: PaymentMarketsResponse },
      },
    },
    async (request) => service.markets(callerOf(request)),
  );

  app.get(
    '/partner/payments/quote',
    {
      config: read,
      ...initiation('read'),
      schema: {
        operationId: 'paymentQuote',
        summary: 'The quote of a collection or disbursement before it is made: rate, USD amount, fee, total, the channel limits and the USD balance',
        querystring: PaymentQuoteQuery,
        response: { 200: PaymentQuote },
      },
    },
    async (request) => service.quote(callerOf(request), request.query),
  );

  app.post(
    '/partner/disbursement',
    {
      config: moving,
      ...initiation('write'),
      schema: {
        operationId: 'createDisbursement',
        summary:
          'Pay out local currency to a recipient (admin, treasury, or a key with api_write): 201 with the created payment; its USD amount and fee are reserved on the balance',
        description: `Checks, in order: the channel (active, of the country, a withdraw channel), the country enabled for the partner, the channel's min and max, the network (active, reached through the channel) and its account number type, the USD balance. The same sequenceId again answers the first payment (200, idempotent-replayed: true); with another body it is a 409. ${SANDBOX_DOCS}`,
        body: DisbursementRequest,
        response: { 200: PaymentResponse, 201: PaymentResponse },
      },
    },
    async (request, reply) => {
      const { payment, replayed } = await service.disburse(callerOf(request), request.body);
      return createdOrReplayed(reply, replayed, { payment });
    },
  );

  app.post(
    '/partner/collection',
    {
      config: moving,
      ...initiation('write'),
      schema: {
        operationId: 'createCollection',
        summary:
          'Collect local currency from a payer (admin, treasury, or a key with api_write): 201 with the collection and the instructions the payer needs (bank transfer details or a mobile-money prompt)',
        description: `On completion the USD amount less the fee is credited to the balance. The same sequenceId again answers the first collection (200, idempotent-replayed: true). ${SANDBOX_DOCS}`,
        body: CollectionRequest,
        response: { 200: PaymentResponse, 201: PaymentResponse },
      },
    },
    async (request, reply) => {
      const { payment, replayed } = await service.collect(callerOf(request), request.body);
      return createdOrReplayed(reply, replayed, { payment });
    },
  );

  app.get(
    '/collections/:id',
    {
      config: read,
      schema: {
        operationId: 'getCollection',
        summary: 'A collection with its timeline of states',
        params: PaymentIdParams,
        response: { 200: PaymentResponse },
      },
    },
    async (request) => ({ payment: await service.byId(callerOf(request), 'collection', request.params.id) }),
  );

  app.get(
    '/disbursements/:id',
    {
      config: read,
      schema: {
        operationId: 'getDisbursement',
        summary: 'A disbursement with its timeline of states',
        params: PaymentIdParams,
        response: { 200: PaymentResponse },
      },
    },
    async (request) => ({ payment: await service.byId(callerOf(request), 'disbursement', request.params.id) }),
  );
};
