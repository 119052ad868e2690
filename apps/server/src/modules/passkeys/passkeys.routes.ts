import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageResponse } from '@portal/contract/auth';
import { ErrorBody } from '@portal/contract/errors';
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
import type { PasskeysService } from './passkeys.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/**
 * The caller's own passkeys: list, add (options, then the browser's answer with the e-mailed code of action
 * passkey.add), rename, remove (with the authenticator's code or a recovery code). Every role manages its own.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{ passkeys: PasskeysService }> = async (app, { passkeys }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/me/passkeys',
    {
      schema: {
        operationId: 'myPasskeys',
        tags: ['security'],
        summary: "The caller's passkeys: name, when added (and in which browser), when last used",
        response: { 200: PasskeysResponse, ...errors },
      },
    },
    async (request) => ({ passkeys: await passkeys.list(authOf(request)) }),
  );

  app.post(
    '/me/passkeys/options',
    {
      schema: {
        operationId: 'passkeyAddOptions',
        tags: ['security'],
        summary: 'Begin adding a passkey: the options for navigator.credentials.create, valid for five minutes',
        response: { 200: PasskeyOptionsResponse, ...errors },
      },
    },
    async (request) => passkeys.addOptions(authOf(request)),
  );

  app.post(
    '/me/passkeys',
    {
      schema: {
        operationId: 'addPasskey',
        tags: ['security'],
        summary: 'Add the passkey the browser made, named, with the e-mailed code asked for it (action passkey.add, target its name)',
        body: AddPasskeyRequest,
        response: { 200: Passkey, ...errors },
      },
    },
    async (request) => passkeys.add(authOf(request), request.body, requestCtx(request)),
  );

  app.put(
    '/me/passkeys/:passkeyId',
    {
      schema: {
        operationId: 'renamePasskey',
        tags: ['security'],
        summary: 'Rename one of the caller’s passkeys',
        params: PasskeyIdParams,
        body: RenamePasskeyRequest,
        response: { 200: MessageResponse, ...errors },
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
        tags: ['security'],
        summary: 'Remove one of the caller’s passkeys, confirmed with the authenticator app’s code or a recovery code',
        params: PasskeyIdParams,
        body: RemovePasskeyRequest,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await passkeys.remove(authOf(request), request.params.passkeyId, request.body.code, requestCtx(request));
      return { message: 'Passkey removed' };
    },
  );
};
