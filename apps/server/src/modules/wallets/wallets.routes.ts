import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateWalletRequest,
  DeleteWalletParams,
  DeleteWalletRequest,
  UpdateWalletRequest,
  WalletResponse,
  WalletStatusUpdateRequest,
  WalletsResponse,
} from '@portal/contract/wallets';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { WalletService } from './wallets.service.ts';

/** Settlement wallets (portal-core §7: GET partner/wallets, POST and PUT partner/wallet, DELETE partner/wallet/{address}). */
export const walletRoutes: FastifyPluginAsyncZod<{ service: WalletService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'wallets', errors: [400, 401, 403, 404, 409] });

  app.get(
    '/partner/wallets',
    {
      schema: {
        operationId: 'settlementWallets',
        summary: "The partner's settlement wallets, every status (deleted and denied ones with their reason)",
        response: { 200: WalletsResponse },
      },
    },
    async (request) => service.list(authOf(request)),
  );

  app.post(
    '/partner/wallet',
    {
      schema: {
        operationId: 'createSettlementWallet',
        summary: 'Add a settlement wallet (admin, treasury; the e-mailed code): it waits for another admin or treasury user to approve it',
        body: CreateWalletRequest,
        response: { 201: WalletResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(authOf(request), request.body)),
  );

  app.put(
    '/partner/wallet',
    {
      schema: {
        operationId: 'updateSettlementWallet',
        summary: 'Enable a disabled wallet (needs the e-mailed code and a free place: at most 3 per coin and network) or disable an enabled one',
        body: UpdateWalletRequest,
        response: { 200: WalletResponse },
      },
    },
    async (request) => service.setEnabled(authOf(request), request.body),
  );

  app.put(
    '/partner/wallet/status',
    {
      schema: {
        operationId: 'reviewSettlementWallet',
        summary:
          "The wallet status update: approve (then screening, then enabled) or deny (with a reason) a wallet pending approval. Four eyes: another admin or treasury user than the wallet's creator.",
        body: WalletStatusUpdateRequest,
        response: { 200: WalletResponse },
      },
    },
    async (request) => service.review(authOf(request), request.body),
  );

  app.delete(
    '/partner/wallet/:address',
    {
      schema: {
        operationId: 'deleteSettlementWallet',
        summary: 'Delete a wallet (admin, treasury; the e-mailed code and one of the four reasons). It stays in the list as deleted.',
        params: DeleteWalletParams,
        body: DeleteWalletRequest,
        response: { 200: WalletResponse },
      },
    },
    async (request) => service.remove(authOf(request), request.params.address, request.body),
  );
};
