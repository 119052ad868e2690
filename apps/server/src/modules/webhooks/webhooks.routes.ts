import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@portal/contract/errors';
import {
  CreateWebhookRequest,
  CreatedWebhookResponse,
  DeleteWebhookQuery,
  DeliveryIdParams,
  DeliveryResponse,
  RollWebhookSecretRequest,
  RolledWebhookSecretResponse,
  UpdateWebhookRequest,
  WebhookActivityQuery,
  WebhookActivityResponse,
  WebhookIdParams,
  WebhookResponse,
  WebhooksResponse,
} from '@portal/contract/webhooks';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { WebhooksService } from './webhooks.service.ts';

/**
 * Webhooks (portal-core §7: GET, POST, PUT partner/webhook; DELETE partner/webhook/{id}?otp=; GET partner/activity
 * with type=webhook), plus a test event and a resend. Changes to an endpoint need the e-mailed code (PUT user/otp).
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ service: WebhooksService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'webhooks', errors: [400, 401, 403, 404] });

  app.get(
    '/partner/webhook',
    { config: { testData: true }, schema: { operationId: 'listWebhooks', summary: 'Webhook endpoints, newest first', response: { 200: WebhooksResponse } } },
    async (request) => service.list(authOf(request)),
  );

  app.post(
    '/partner/webhook',
    {
      config: { testData: true },
      schema: {
        operationId: 'createWebhook',
        summary: 'Add a webhook endpoint (admin, e-mailed code): its signing secret is in this reply only',
        body: CreateWebhookRequest,
        response: { 201: CreatedWebhookResponse, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(authOf(request), request.body)),
  );

  app.put(
    '/partner/webhook',
    {
      config: { testData: true },
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint: URL, events, description, active (admin, e-mailed code)',
        body: UpdateWebhookRequest,
        response: { 200: WebhookResponse, 409: ErrorBody },
      },
    },
    async (request) => service.update(authOf(request), request.body),
  );

  app.delete(
    '/partner/webhook/:id',
    {
      config: { testData: true },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery history (admin, e-mailed code)',
        params: WebhookIdParams,
        querystring: DeleteWebhookQuery,
        response: { 200: z.object({ id: z.string().uuid() }) },
      },
    },
    async (request) => service.remove(authOf(request), request.params.id, request.query.otp),
  );

  app.post(
    '/partner/webhook/:id/roll-secret',
    {
      config: { testData: true },
      schema: {
        operationId: 'rollWebhookSecret',
        summary:
          "Roll an endpoint's signing secret (admin, e-mailed code): the new secret is in this reply only; the old one keeps signing beside it for previousSecretMinutes (at most 7 days, 0 ends it now)",
        params: WebhookIdParams,
        body: RollWebhookSecretRequest,
        response: { 200: RolledWebhookSecretResponse },
      },
    },
    async (request) => service.rollSecret(authOf(request), request.params.id, request.body),
  );

  app.post(
    '/partner/webhook/:id/test',
    {
      config: { testData: true },
      schema: {
        operationId: 'sendTestWebhook',
        summary: 'Send a WEBHOOK.TEST event to one endpoint now (admin); the delivery appears in the activity',
        params: WebhookIdParams,
        response: { 200: DeliveryResponse, 429: ErrorBody },
      },
    },
    async (request) => service.sendTest(authOf(request), request.params.id),
  );

  app.get(
    '/partner/activity',
    {
      config: { testData: true },
      schema: {
        operationId: 'webhookActivity',
        summary: 'Webhook deliveries newest first, each with its attempts (type=webhook)',
        querystring: WebhookActivityQuery,
        response: { 200: WebhookActivityResponse },
      },
    },
    async (request) => service.activity(authOf(request), request.query),
  );

  app.post(
    '/partner/activity/:id/resend',
    {
      config: { testData: true },
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery that succeeded or failed again, once, with the same webhook-id (admin)',
        params: DeliveryIdParams,
        response: { 200: DeliveryResponse, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => service.resend(authOf(request), request.params.id),
  );
};
