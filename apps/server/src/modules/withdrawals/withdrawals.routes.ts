import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SettlementFeeQuery, SettlementFeeResponse, SettlementRequest, TravelRuleResponse, WithdrawalResponse } from '@portal/contract/settlements';
import { authOf } from '../../plugins/auth.ts';
import { createdOrReplayed } from '../../plugins/idempotency.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { WithdrawalService } from './withdrawals.service.ts';

/** Withdrawals (portal-core §7: GET partner/settlement/fee, GET partner/travel-rule, POST partner/settlement/withdrawal). */
export const withdrawalRoutes: FastifyPluginAsyncZod<{ service: WithdrawalService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'withdrawals', errors: [400, 401, 403, 404, 409] });

  app.get(
    '/partner/settlement/fee',
    {
      schema: {
        operationId: 'settlementFee',
        summary: 'The network fee of a withdrawal (feeAmount, in the coin), with the rate, what arrives and the most that can be withdrawn now',
        querystring: SettlementFeeQuery,
        response: { 200: SettlementFeeResponse },
      },
    },
    async (request) => service.fee(authOf(request), request.query),
  );

  app.get(
    '/partner/travel-rule',
    {
      schema: {
        operationId: 'travelRuleConfigs',
        summary: 'The travel-rule configs: from which amount a withdrawal needs which recipient details',
        response: { 200: TravelRuleResponse },
      },
    },
    async () => service.travelRule(),
  );

  app.post(
    '/partner/settlement/withdrawal',
    {
      config: { fairShare: true },
      schema: {
        operationId: 'withdraw',
        summary:
          'Withdraw USD from the balance to an enabled settlement wallet (admin, treasury): 201 with the pending settlement. The same sequenceId again answers the first result (200, idempotent-replayed: true) and books nothing; with another body it is refused (409).',
        body: SettlementRequest,
        response: { 200: WithdrawalResponse, 201: WithdrawalResponse },
      },
    },
    async (request, reply) => {
      const { settlement, replayed } = await service.withdraw(authOf(request), request.body);
      return createdOrReplayed(reply, replayed, { settlement });
    },
  );
};
