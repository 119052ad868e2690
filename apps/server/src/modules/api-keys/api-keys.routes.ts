import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddIpAddressRequest,
  UpdateIpAddressRequest,
  ApiKeyListResponse,
  ApiKeyParams,
  ApiKeyResponse,
  ApiKeySecretResponse,
  CreateApiKeyRequest,
  DeleteIpAddressQuery,
  IpAddressListResponse,
  IpAddressResponse,
  RollApiKeyRequest,
  UpdateApiKeyRequest,
} from '@portal/contract/api-keys';
import { MessageResponse } from '@portal/contract/auth';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { AllowedIpsService } from './allowed-ips.service.ts';
import type { ApiKeysService } from './api-keys.service.ts';

/**
 * API keys and allowed IP addresses (portal-core §7): the portal's calls, for signed-in admins only (API keys cannot
 * manage keys). The partner is always the one of the token.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ keys: ApiKeysService; ips: AllowedIpsService }> = async (app, { keys, ips }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'api keys', errors: [400, 401, 403, 404, 409] });

  app.get(
    '/partner/apikey',
    {
      schema: {
        operationId: 'listApiKeys',
        summary: "The partner's API keys, most recently changed first, without their secrets (admin)",
        response: { 200: ApiKeyListResponse },
      },
    },
    async (request) => keys.list(authOf(request)),
  );

  app.post(
    '/partner/apikey',
    {
      schema: {
        operationId: 'createApiKey',
        summary: 'Create an API key (admin); the reply holds its secretKey, shown this once',
        body: CreateApiKeyRequest,
        response: { 201: ApiKeySecretResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ apiKey: await keys.create(authOf(request), request.body) }),
  );

  app.put(
    '/partner/apikey',
    {
      schema: {
        operationId: 'updateApiKey',
        summary: "Set a key's status: active or disabled (admin)",
        body: UpdateApiKeyRequest,
        response: { 200: ApiKeyResponse },
      },
    },
    async (request) => ({ apiKey: await keys.setStatus(authOf(request), request.body.apiKey, request.body.status) }),
  );

  app.post(
    '/partner/apikey/:apiKey/roll',
    {
      schema: {
        operationId: 'rollApiKey',
        summary: 'A new secret for the key, shown this once; the old one keeps working for the chosen minutes (admin)',
        params: ApiKeyParams,
        body: RollApiKeyRequest,
        response: { 200: ApiKeySecretResponse },
      },
    },
    async (request) => ({ apiKey: await keys.roll(authOf(request), request.params.apiKey, request.body) }),
  );

  app.delete(
    '/partner/apikey/:apiKey',
    {
      schema: {
        operationId: 'deleteApiKey',
        summary: 'Delete a key: calls signed with it are refused at once (admin)',
        params: ApiKeyParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => keys.remove(authOf(request), request.params.apiKey),
  );

  app.get(
    '/partner/ip-addresses',
    {
      schema: {
        operationId: 'listIpAddresses',
        summary: 'Allowed IP addresses for API-key calls; empty: any address (admin)',
        response: { 200: IpAddressListResponse },
      },
    },
    async (request) => ips.list(authOf(request)),
  );

  app.post(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'addIpAddress',
        summary: 'Allow an IPv4 or IPv6 address or CIDR range, with the e-mailed code (admin)',
        body: AddIpAddressRequest,
        response: { 201: IpAddressResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ ipAddress: await ips.add(authOf(request), request.body.ipAddress, request.body.otp) }),
  );

  app.put(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'updateIpAddress',
        summary: 'Change an allowed address or range, with the code e-mailed for this change (admin)',
        body: UpdateIpAddressRequest,
        response: { 200: IpAddressResponse },
      },
    },
    async (request) => ({ ipAddress: await ips.change(authOf(request), request.body) }),
  );

  app.delete(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'deleteIpAddress',
        summary: 'Remove an allowed address, with the e-mailed code (admin)',
        querystring: DeleteIpAddressQuery,
        response: { 200: MessageResponse },
      },
    },
    async (request) => ips.remove(authOf(request), request.query.ipAddress, request.query.otp),
  );
};
