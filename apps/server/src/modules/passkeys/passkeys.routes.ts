import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageResponse } from '@portal/contract/auth';
import {
  AddPasskeyRequest,
  Passkey,
  PasskeyIdParams,
  PasskeyOptionsResponse,
  PasskeysResponse,
  RemovePasskeyRequest,
  RenamePasskeyRequest,
} from '@portal/contract/passkeys';
import { requestCtx } from '../../lib/request-ctx.ts';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { PasskeysService } from './passkeys.service.ts';

/**
 * The caller's own passkeys: list, add (options, then the browser's answer with the e-mailed code of action
 * passkey.add), rename, remove (with the authenticator's code or a recovery code). Every role manages its own.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{ passkeys: PasskeysService }> = async (app, { passkeys }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'security', errors: [400, 401, 403, 404, 409, 429] });

  app.get(
    '/me/passkeys',
    {
      schema: {
        operationId: 'myPasskeys',
        summary: "The caller's passkeys: name, when added (and in which browser), when last used",
        response: { 200: PasskeysResponse },
      },
    },
    async (request) => ({ passkeys: await passkeys.list(authOf(request)) }),
  );

  app.post(
    '/me/passkeys/options',
    {
      schema: {
        operationId: 'passkeyAddOptions',
        summary: 'Begin adding a passkey: the options for navigator.credentials.create, valid for five minutes',
        response: { 200: PasskeyOptionsResponse },
      },
    },
    async (request) => passkeys.addOptions(authOf(request)),
  );

  app.post(
    '/me/passkeys',
    {
      schema: {
        operationId: 'addPasskey',
        summary: 'Add the passkey the browser made, named, with the e-mailed code asked for it (action passkey.add, target its name)',
        body: AddPasskeyRequest,
        response: { 200: Passkey },
      },
    },
    async (request) => passkeys.add(authOf(request), request.body, requestCtx(request)),
  );

  app.put(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        operationId: 'renamePasskey',
        summary: 'Rename one of the caller’s passkeys',
        params: PasskeyIdParams,
        body: RenamePasskeyRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await passkeys.rename(authOf(request), request.params.passkeyId, request.body.name, requestCtx(request));
      return { message: 'Passkey renamed' };
    },
  );

  app.delete(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        operationId: 'removePasskey',
        summary: 'Remove one of the caller’s passkeys, confirmed with the authenticator app’s code or a recovery code',
        params: PasskeyIdParams,
        body: RemovePasskeyRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await passkeys.remove(authOf(request), request.params.passkeyId, request.body.code, requestCtx(request));
      return { message: 'Passkey removed' };
    },
  );
};
