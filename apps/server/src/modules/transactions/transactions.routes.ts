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
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { TransactionsService } from './transactions.service.ts';

const partnerApi = { apiKey: 'api_read', testData: true } as const;
/** reads sent as POSTs (for their bodies): no request-forgery token needed, so a first page goes beside the start data */
const postedRead = { ...partnerApi, readOnly: true, fairShare: true } as const;

/** Transaction search (transaction-data §5, §7). The partner comes from the token; a partnerId in the body is refused. */
export const transactionRoutes: FastifyPluginAsyncZod<{ service: TransactionsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'transactions', errors: [400, 401, 403] });

  app.post(
    '/transactions/search',
    {
      config: postedRead,
      schema: {
        operationId: 'searchTransactions',
        summary: 'A page of a transaction table, newest first',
        body: SearchRequest,
        response: { 200: SearchResponse },
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
        summary: 'Batches of up to 2,500 rows for exports (10,000 at most)',
        body: ScrollRequest,
        response: { 200: ScrollResponse },
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
        summary: "The tables of the caller's screens that hold a transaction with this id (or its first characters)",
        body: LocateRequest,
        response: { 200: LocateResponse },
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
        summary: 'One transaction of a table by its id; 404 when the partner has none with that id',
        params: TransactionParams,
        response: { 200: TransactionResponse, 404: ErrorBody },
      },
    },
    async (request) => service.byId(callerOf(request).partnerId, request.params.table, request.params.id),
  );
};
