/** The webhooks module's face: its routes, service and delivery workers, and the events other modules record. */
export { webhookRoutes } from './webhooks.routes.ts';
export { createWebhooksService } from './webhooks.service.ts';
export { startWebhookDelivery } from './webhook-delivery.ts';
export { recordEvent, settlementEvent } from './webhook-events.ts';
