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
import { ErrorBody } from '@portal/contract/errors';
import { authOf } from '../../plugins/auth.ts';
import type { AllowedIpsService } from './allowed-ips.service.ts';
import type { ApiKeysService } from './api-keys.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * API keys and allowed IP addresses (portal-core §7): the portal's calls, for signed-in admins only (API keys cannot
 * manage keys). The partner is always the one of the token.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ keys: ApiKeysService; ips: AllowedIpsService }> = async (app, { keys, ips }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/partner/apikey',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: ['api keys'],
        summary: "The partner's API keys, most recently changed first, without their secrets (admin)",
        response: { 200: ApiKeyListResponse, ...errors },
      },
    },
    async (request) => keys.list(authOf(request)),
  );

  app.post(
    '/partner/apikey',
    {
      schema: {
        operationId: 'createApiKey',
        tags: ['api keys'],
        summary: 'Create an API key (admin); the reply holds its secretKey, shown this once',
        body: CreateApiKeyRequest,
        response: { 201: ApiKeySecretResponse, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send({ apiKey: await keys.create(authOf(request), request.body) }),
  );

  app.put(
    '/partner/apikey',
    {
      schema: {
        operationId: 'updateApiKey',
        tags: ['api keys'],
        summary: "Set a key's status: active or disabled (admin)",
        body: UpdateApiKeyRequest,
        response: { 200: ApiKeyResponse, ...errors },
      },
    },
    async (request) => ({ apiKey: await keys.setStatus(authOf(request), request.body.apiKey, request.body.status) }),
  );

  app.post(
    '/partner/apikey/:apiKey/roll',
    {
      schema: {
        operationId: 'rollApiKey',
        tags: ['api keys'],
        summary: 'A new secret for the key, shown this once; the old one keeps working for the chosen minutes (admin)',
        params: ApiKeyParams,
        body: RollApiKeyRequest,
        response: { 200: ApiKeySecretResponse, ...errors },
      },
    },
    async (request) => ({ apiKey: await keys.roll(authOf(request), request.params.apiKey, request.body) }),
  );

  app.delete(
    '/partner/apikey/:apiKey',
    {
      schema: {
        operationId: 'deleteApiKey',
        tags: ['api keys'],
        summary: 'Delete a key: calls signed with it are refused at once (admin)',
        params: ApiKeyParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => keys.remove(authOf(request), request.params.apiKey),
  );

  app.get(
    '/partner/ip-addresses',
    {
      schema: {
        operationId: 'listIpAddresses',
        tags: ['api keys'],
        summary: 'Allowed IP addresses for API-key calls; empty: any address (admin)',
        response: { 200: IpAddressListResponse, ...errors },
      },
    },
    async (request) => ips.list(authOf(request)),
  );

  app.post(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'addIpAddress',
        tags: ['api keys'],
        summary: 'Allow an IPv4 or IPv6 address or CIDR range, with the e-mailed code (admin)',
        body: AddIpAddressRequest,
        response: { 201: IpAddressResponse, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send({ ipAddress: await ips.add(authOf(request), request.body.ipAddress, request.body.otp) }),
  );

  app.put(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'updateIpAddress',
        tags: ['api keys'],
        summary: 'Change an allowed address or range, with the code e-mailed for this change (admin)',
        body: UpdateIpAddressRequest,
        response: { 200: IpAddressResponse, ...errors },
      },
    },
    async (request) => ({ ipAddress: await ips.change(authOf(request), request.body) }),
  );

  app.delete(
    '/partner/ip-address',
    {
      schema: {
        operationId: 'deleteIpAddress',
        tags: ['api keys'],
        summary: 'Remove an allowed address, with the e-mailed code (admin)',
        querystring: DeleteIpAddressQuery,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => ips.remove(authOf(request), request.query.ipAddress, request.query.otp),
  );
};
