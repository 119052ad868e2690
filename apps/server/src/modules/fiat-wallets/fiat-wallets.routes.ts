import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '@portal/contract/errors';
import { FiatWalletsResponse, UpdateFiatWalletRequest, UpdateFiatWalletResponse } from '@portal/contract/fiat-wallets';
import { authOf } from '../../plugins/auth.ts';
import type { FiatWalletsService } from './fiat-wallets.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** GET partner/fiat-wallets and PUT partner/fiat-wallet (portal-core §7), always for the partner of the token. */
export const fiatWalletRoutes: FastifyPluginAsyncZod<{ service: FiatWalletsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/partner/fiat-wallets',
    {
      schema: {
        operationId: 'fiatWallets',
        tags: ['partner'],
        summary: 'Fiat wallets with their ledger balance; the default USD/US wallet (id 1) first when the partner has fiat wallets',
        response: { 200: FiatWalletsResponse, ...errors },
      },
    },
    async (request) => ({ fiatWallets: await service.list(authOf(request)) }),
  );

  app.put(
    '/partner/fiat-wallet',
    {
      schema: {
        operationId: 'updateFiatWallet',
        tags: ['partner'],
        summary: 'Switch payments and/or collections of one fiat wallet (admin, treasury); the default USD wallet is always on',
        body: UpdateFiatWalletRequest,
        response: { 200: UpdateFiatWalletResponse, ...errors },
      },
    },
    async (request) => ({ fiatWallet: await service.update(authOf(request), request.body) }),
  );
};
