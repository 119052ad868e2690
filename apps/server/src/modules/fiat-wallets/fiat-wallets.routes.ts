import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FiatWalletsResponse, UpdateFiatWalletRequest, UpdateFiatWalletResponse } from '@portal/contract/fiat-wallets';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { FiatWalletsService } from './fiat-wallets.service.ts';

/** GET partner/fiat-wallets and PUT partner/fiat-wallet (portal-core §7), always for the partner of the token. */
export const fiatWalletRoutes: FastifyPluginAsyncZod<{ service: FiatWalletsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'partner', errors: [400, 401, 403, 404] });

  app.get(
    '/partner/fiat-wallets',
    {
      schema: {
        operationId: 'fiatWallets',
        summary: 'Fiat wallets with their ledger balance; the default USD/US wallet (id 1) first when the partner has fiat wallets',
        response: { 200: FiatWalletsResponse },
      },
    },
    async (request) => ({ fiatWallets: await service.list(authOf(request)) }),
  );

  app.put(
    '/partner/fiat-wallet',
    {
      schema: {
        operationId: 'updateFiatWallet',
        summary: 'Switch payments and/or collections of one fiat wallet (admin, treasury); the default USD wallet is always on',
        body: UpdateFiatWalletRequest,
        response: { 200: UpdateFiatWalletResponse },
      },
    },
    async (request) => ({ fiatWallet: await service.update(authOf(request), request.body) }),
  );
};
