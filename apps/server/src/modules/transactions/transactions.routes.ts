import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '@portal/contract/errors';
import { ScrollRequest, ScrollResponse, SearchRequest, SearchResponse } from '@portal/contract/transactions';
import { authOf } from '../../plugins/auth.ts';
import { createTransactionsService } from './transactions.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** Transaction search (transaction-data §5, §7). The partner comes from the token; a partnerId in the body is refused. */
export const transactionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const service = createTransactionsService({ db: app.database.db, key: app.keys.jwtSecret, now: app.clock });

  app.post(
    '/transactions/search',
    { schema: { operationId: 'searchTransactions', tags: ['transactions'], summary: 'A page of a transaction table, newest first', body: SearchRequest, response: { 200: SearchResponse, ...errors } } },
    async (request) => service.search(authOf(request).partnerId, request.body),
  );

  app.post(
    '/transactions/scroll',
    { schema: { operationId: 'scrollTransactions', tags: ['transactions'], summary: 'Batches of up to 2,500 rows for exports (10,000 at most)', body: ScrollRequest, response: { 200: ScrollResponse, ...errors } } },
    async (request) => service.scroll(authOf(request).partnerId, request.body),
  );
};
