import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrencyNetworkId } from '@portal/contract/domain';
import { ErrorBody } from '@portal/contract/errors';
import { AssignDepositAddressRequest, DepositAddressResponse, DepositAddressesResponse, PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import { LowBalanceLimitRequest, PayoutConfig, PayoutConfigResponse } from '@portal/contract/payout';
import { authOf, callerOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { DepositAddressService } from './deposit-addresses.service.ts';
import type { PartnerSettingsService } from './partner-settings.service.ts';
import type { PartnerService } from './partners.service.ts';

/** The signed-in user's own partner: always the one in the verified token; a partnerId sent by the client is ignored. */
export const partnerRoutes: FastifyPluginAsyncZod<{ partners: PartnerService; settings: PartnerSettingsService; addresses: DepositAddressService }> = async (
  app,
  { partners, settings, addresses },
) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'partner', errors: [400, 401, 403, 404] });

  app.get(
    '/partner/profile',
    {
      config: { apiKey: 'api_read' },
      schema: { operationId: 'partnerProfile', summary: 'The partner and its feature flags', response: { 200: PartnerProfile } },
    },
    async (request) => partners.profile(callerOf(request)),
  );

  app.get(
    '/partner/accounts',
    {
      config: { apiKey: 'api_read', testData: true },
      schema: {
        operationId: 'partnerAccounts',
        summary: 'Currency accounts with their available balance (from the ledger)',
        response: { 200: PartnerAccounts },
      },
    },
    async (request) => partners.accounts(callerOf(request)),
  );

  app.post(
    '/partner/low-balance-limit',
    {
      schema: {
        operationId: 'setLowBalanceLimit',
        summary: 'Set the USD amount under which the low-balance banner shows (admin)',
        body: LowBalanceLimitRequest.passthrough(),
        response: { 200: z.object({ lowBalanceLimit: z.string() }) },
      },
    },
    async (request) => settings.setLowBalanceLimit(authOf(request), request.body.lowBalanceLimit),
  );

  app.get(
    '/partner/payout-config',
    {
      schema: {
        operationId: 'payoutConfig',
        summary: 'The payout schedule and its next payout date',
        response: { 200: PayoutConfigResponse },
      },
    },
    async (request) => settings.payoutConfig(authOf(request)),
  );

  app.post(
    '/partner/payout-config',
    {
      schema: {
        operationId: 'savePayoutConfig',
        summary: 'Change the payout schedule (admin)',
        body: PayoutConfig,
        response: { 200: PayoutConfigResponse },
      },
    },
    async (request) => settings.savePayoutConfig(authOf(request), request.body),
  );

  app.get(
    '/partner/addresses',
    {
      config: { apiKey: 'api_read', testData: true },
      schema: {
        operationId: 'depositAddresses',
        summary: 'Deposit addresses per coin and network, and the currency networks the caller may get one for (reads only)',
        response: { 200: DepositAddressesResponse },
      },
    },
    async (request) => addresses.list(callerOf(request)),
  );

  app.post(
    '/partner/addresses',
    {
      config: { apiKey: 'api_write', testData: true },
      schema: {
        operationId: 'assignDepositAddress',
        summary: "Get the partner's deposit address for a coin on a network (admin, treasury): 201 when assigned now, 200 when it had one",
        body: AssignDepositAddressRequest,
        response: { 200: DepositAddressResponse, 201: DepositAddressResponse, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { address, created } = await addresses.assign(callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send({ address });
    },
  );

  app.get(
    '/partner/address',
    {
      config: { apiKey: 'api_read', testData: true },
      schema: {
        operationId: 'depositAddress',
        summary: 'The deposit address for a currency network (default usdt-trc20); 404 when the partner has none',
        querystring: z.object({ currencyNetwork: CurrencyNetworkId.default('usdt-trc20') }),
        response: { 200: DepositAddressResponse },
      },
    },
    async (request) => ({ address: await addresses.get(callerOf(request), request.query.currencyNetwork) }),
  );
};
