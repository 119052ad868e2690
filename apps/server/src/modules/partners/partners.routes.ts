import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrencyNetworkId } from '@portal/contract/domain';
import { ErrorBody } from '@portal/contract/errors';
import { DepositAddressResponse, DepositAddressesResponse, PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import { LowBalanceLimitRequest, PayoutConfig, PayoutConfigResponse } from '@portal/contract/payout';
import { notFound } from '../../lib/errors.ts';
import { AUTH_CACHE_MS, authOf } from '../../plugins/auth.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import type { PartnerRow } from '../../db/schema.ts';
import { createPartnerSettingsService } from './partner-settings.service.ts';
import { accountBalances, findPartner, toFeatureFlags, toPartner } from './partners.repository.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The signed-in user's own partner: always the one in the verified token; a partnerId sent by the client is ignored. */
export const partnerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const settings = createPartnerSettingsService({ db: app.database.db, now: app.clock });
  // the partner row is read on most requests; changes made here drop it at once, others show within 5 s
  const partners = new TtlCache<PartnerRow | undefined>(AUTH_CACHE_MS);
  const ownPartner = async (partnerId: string) => {
    const row = await partners.get(partnerId, () => findPartner(app.database.db, partnerId));
    if (!row) throw notFound('No such partner');
    return row;
  };
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.auth) partners.delete(request.auth.partnerId);
  });

  app.get(
    '/partner/profile',
    { schema: { operationId: 'partnerProfile', tags: ['partner'], summary: 'The partner and its feature flags', response: { 200: PartnerProfile, ...errors } } },
    async (request) => {
      const row = await ownPartner(authOf(request).partnerId);
      return { partner: toPartner(row), featureFlags: toFeatureFlags(row.feature_flags) };
    },
  );

  app.get(
    '/partner/accounts',
    { schema: { operationId: 'partnerAccounts', tags: ['partner'], summary: 'Currency accounts with their available balance (from the ledger)', response: { 200: PartnerAccounts, ...errors } } },
    async (request) => {
      const row = await ownPartner(authOf(request).partnerId);
      return { partner: { id: row.id, name: row.name }, accounts: await accountBalances(app.database.db, row.id) };
    },
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
    { schema: { operationId: 'payoutConfig', tags: ['partner'], summary: 'The payout schedule and its next payout date', response: { 200: PayoutConfigResponse, ...errors } } },
    async (request) => settings.payoutConfig(authOf(request).partnerId),
  );

  app.post(
    '/partner/payout-config',
    { schema: { operationId: 'savePayoutConfig', tags: ['partner'], summary: 'Change the payout schedule (admin)', body: PayoutConfig, response: { 200: PayoutConfigResponse, ...errors } } },
    async (request) => settings.savePayoutConfig(authOf(request), request.body),
  );

  app.get(
    '/partner/addresses',
    { schema: { operationId: 'depositAddresses', tags: ['partner'], summary: 'Deposit addresses per coin and network', response: { 200: DepositAddressesResponse, ...errors } } },
    async (request) => ({ addresses: await settings.addresses(authOf(request).partnerId) }),
  );

  app.get(
    '/partner/address',
    {
      schema: {
        operationId: 'depositAddress',
        tags: ['partner'],
        summary: 'The deposit address for a currency network (default usdt-trc20)',
        querystring: z.object({ currencyNetwork: CurrencyNetworkId.default('usdt-trc20') }),
        response: { 200: DepositAddressResponse, ...errors },
      },
    },
    async (request) => ({ address: await settings.address(authOf(request).partnerId, request.query.currencyNetwork) }),
  );
};
