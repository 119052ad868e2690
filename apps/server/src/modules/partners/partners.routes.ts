import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrencyNetworkId } from '@portal/contract/domain';
import { ErrorBody } from '@portal/contract/errors';
import { AssignDepositAddressRequest, DepositAddressResponse, DepositAddressesResponse, PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import { LowBalanceLimitRequest, PayoutConfig, PayoutConfigResponse } from '@portal/contract/payout';
import { authOf, callerOf } from '../../plugins/auth.ts';
import type { DepositAddressService } from './deposit-addresses.service.ts';
import type { PartnerSettingsService } from './partner-settings.service.ts';
import type { PartnerService } from './partners.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The signed-in user's own partner: always the one in the verified token; a partnerId sent by the client is ignored. */
export const partnerRoutes: FastifyPluginAsyncZod<{ partners: PartnerService; settings: PartnerSettingsService; addresses: DepositAddressService }> = async (
  app,
  { partners, settings, addresses },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/partner/profile',
    {
      config: { apiKey: 'api_read' },
      schema: { operationId: 'partnerProfile', tags: ['partner'], summary: 'The partner and its feature flags', response: { 200: PartnerProfile, ...errors } },
    },
    async (request) => partners.profile(callerOf(request)),
  );

  app.get(
    '/partner/accounts',
    {
      config: { apiKey: 'api_read' },
      schema: {
        operationId: 'partnerAccounts',
        tags: ['partner'],
        summary: 'Currency accounts with their available balance (from the ledger)',
        response: { 200: PartnerAccounts, ...errors },
      },
    },
    async (request) => partners.accounts(callerOf(request)),
  );

  app.post(
    '/partner/low-balance-limit',
    {
      schema: {
        operationId: 'setLowBalanceLimit',
        tags: ['partner'],
        summary: 'Set the USD amount under which the low-balance banner shows (admin)',
        body: LowBalanceLimitRequest.passthrough(),
        response: { 200: z.object({ lowBalanceLimit: z.string() }), ...errors },
      },
    },
    async (request) => settings.setLowBalanceLimit(authOf(request), request.body.lowBalanceLimit),
  );

  app.get(
    '/partner/payout-config',
    {
      schema: {
        operationId: 'payoutConfig',
        tags: ['partner'],
        summary: 'The payout schedule and its next payout date',
        response: { 200: PayoutConfigResponse, ...errors },
      },
    },
    async (request) => settings.payoutConfig(authOf(request)),
  );

  app.post(
    '/partner/payout-config',
    {
      schema: {
        operationId: 'savePayoutConfig',
        tags: ['partner'],
        summary: 'Change the payout schedule (admin)',
        body: PayoutConfig,
        response: { 200: PayoutConfigResponse, ...errors },
      },
    },
    async (request) => settings.savePayoutConfig(authOf(request), request.body),
  );

  app.get(
    '/partner/addresses',
    {
      config: { apiKey: 'api_read' },
      schema: {
        operationId: 'depositAddresses',
        tags: ['partner'],
        summary: 'Deposit addresses per coin and network, and the currency networks the caller may get one for (reads only)',
        response: { 200: DepositAddressesResponse, ...errors },
      },
    },
    async (request) => addresses.list(callerOf(request)),
  );

  app.post(
    '/partner/addresses',
    {
      config: { apiKey: 'api_write' },
      schema: {
        operationId: 'assignDepositAddress',
        tags: ['partner'],
        summary: "Get the partner's deposit address for a coin on a network (admin, treasury): 201 when assigned now, 200 when it had one",
        body: AssignDepositAddressRequest,
        response: { 200: DepositAddressResponse, 201: DepositAddressResponse, ...errors, 409: ErrorBody },
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
      config: { apiKey: 'api_read' },
      schema: {
        operationId: 'depositAddress',
        tags: ['partner'],
        summary: 'The deposit address for a currency network (default usdt-trc20); 404 when the partner has none',
        querystring: z.object({ currencyNetwork: CurrencyNetworkId.default('usdt-trc20') }),
        response: { 200: DepositAddressResponse, ...errors },
      },
    },
    async (request) => ({ address: await addresses.get(callerOf(request), request.query.currencyNetwork) }),
  );
};
