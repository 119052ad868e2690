import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '@portal/contract/errors';
import {
  LocateRequest,
  LocateResponse,
  ScrollRequest,
  ScrollResponse,
  SearchRequest,
  SearchResponse,
  TransactionParams,
  TransactionResponse,
} from '@portal/contract/transactions';
import { callerOf } from '../../plugins/auth.ts';
import type { TransactionsService } from './transactions.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const partnerApi = { apiKey: 'api_read' } as const;
/** reads sent as POSTs (for their bodies): no request-forgery token needed, so a first page goes beside the start data */
const postedRead = { ...partnerApi, readOnly: true, fairShare: true } as const;

/** Transaction search (transaction-data §5, §7). The partner comes from the token; a partnerId in the body is refused. */
export const transactionRoutes: FastifyPluginAsyncZod<{ service: TransactionsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/transactions/search',
    {
      config: postedRead,
      schema: {
        operationId: 'searchTransactions',
        tags: ['transactions'],
        summary: 'A page of a transaction table, newest first',
        body: SearchRequest,
        response: { 200: SearchResponse, ...errors },
      },
    },
    async (request) => service.search(callerOf(request).partnerId, request.body),
  );

  app.post(
    '/transactions/scroll',
    {
      config: postedRead,
      schema: {
        operationId: 'scrollTransactions',
        tags: ['transactions'],
        summary: 'Batches of up to 2,500 rows for exports (10,000 at most)',
        body: ScrollRequest,
        response: { 200: ScrollResponse, ...errors },
      },
    },
    async (request) => service.scroll(callerOf(request).partnerId, request.body),
  );

  app.post(
    '/transactions/locate',
    {
      config: postedRead,
      schema: {
        operationId: 'locateTransaction',
        tags: ['transactions'],
        summary: "The tables of the caller's screens that hold a transaction with this id (or its first characters)",
        body: LocateRequest,
        response: { 200: LocateResponse, ...errors },
      },
    },
    async (request) => service.locate(callerOf(request).partnerId, request.body.id),
  );

  app.get(
    '/transactions/:table/:id',
    {
      config: partnerApi,
      schema: {
        operationId: 'getTransaction',
        tags: ['transactions'],
        summary: 'One transaction of a table by its id; 404 when the partner has none with that id',
        params: TransactionParams,
        response: { 200: TransactionResponse, ...errors, 404: ErrorBody },
      },
    },
    async (request) => service.byId(callerOf(request).partnerId, request.params.table, request.params.id),
  );
};
