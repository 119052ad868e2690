import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BalanceOverview, StatementQuery } from '@portal/contract/balance';
import { TestFundsRequest, TestFundsResponse } from '@portal/contract/test-mode';
import { asAttachment } from '../../lib/attachment.ts';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { BalanceService } from './balance.service.ts';

/** The Balance screen (portal-core §7: GET partner/balance) and the statement (CSV and PDF). */
export const balanceRoutes: FastifyPluginAsyncZod<{ service: BalanceService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'balance', errors: [400, 401, 403, 404, 409] });

  app.post(
    '/partner/test-funds',
    {
      schema: {
        operationId: 'addTestFunds',
        summary: "Test mode: adds test money to the account's test balance (admin, treasury); the same reference twice adds it once",
        body: TestFundsRequest,
        response: { 200: TestFundsResponse },
      },
    },
    async (request) => service.addTestFunds(authOf(request), request.body),
  );

  app.get(
    '/partner/balance',
    {
      config: { testData: true },
      schema: {
        operationId: 'balanceOverview',
        summary: 'The USD balance: available, reserved and under way (withdrawals, disbursements), and the last ledger movements',
        response: { 200: BalanceOverview },
      },
    },
    async (request) => service.overview(authOf(request)),
  );

  app.get(
    '/partner/balance/statement.csv',
    {
      config: { fairShare: true, testData: true },
      schema: {
        operationId: 'balanceStatementCsv',
        summary: 'The USD statement of whole UTC days as CSV: opening balance, entries with their running balance, closing balance',
        querystring: StatementQuery,
      },
    },
    async (request, reply) => {
      const { filename, csv } = await service.statementCsv(authOf(request), request.query);
      return asAttachment(reply, 'text/csv; charset=utf-8', filename).send(csv);
    },
  );

  app.get(
    '/partner/balance/statement.pdf',
    {
      config: { fairShare: true, deadline: false, testData: true },
      schema: {
        operationId: 'balanceStatementPdf',
        summary: 'The same USD statement as an A4 PDF: the partner, the period, a summary, the entries with their running balance, totals',
        querystring: StatementQuery,
      },
    },
    async (request, reply) => {
      const { filename, pdf } = await service.statementPdf(authOf(request), request.query);
      return asAttachment(reply, 'application/pdf', filename).send(pdf);
    },
  );
};
