import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@portal/contract/errors';
import { PartnerProfile } from '@portal/contract/partner';
import { DecimalString } from '@portal/contract/domain';
import { notFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { accountBalances, findPartner, toFeatureFlags, toPartner } from './partners.repository.ts';

export const PartnerAccounts = z.object({
  partner: z.object({ id: z.string().uuid(), name: z.string() }),
  accounts: z.array(z.object({ currency: z.string(), available: DecimalString })),
});

/** The signed-in user's own partner: always the one in the verified token. */
export const partnerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/partner/profile',
    { schema: { operationId: 'partnerProfile', tags: ['partner'], summary: 'The partner and its feature flags', response: { 200: PartnerProfile, 401: ErrorBody } } },
    async (request) => {
      const { partnerId } = authOf(request);
      const row = await findPartner(app.database.db, partnerId);
      if (!row) throw notFound('No such partner');
      return { partner: toPartner(row), featureFlags: toFeatureFlags(row.feature_flags) };
    },
  );

  app.get(
    '/partner/accounts',
    { schema: { operationId: 'partnerAccounts', tags: ['partner'], summary: 'Currency accounts with their available balance', response: { 200: PartnerAccounts, 401: ErrorBody } } },
    async (request) => {
      const { partnerId } = authOf(request);
      const row = await findPartner(app.database.db, partnerId);
      if (!row) throw notFound('No such partner');
      const accounts = await accountBalances(app.database.db, partnerId);
      return { partner: { id: row.id, name: row.name }, accounts };
    },
  );
};
