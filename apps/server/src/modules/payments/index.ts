/** The payments module's face: its routes (payments and the live event stream), service and workers. */
export { paymentRoutes } from './payments.routes.ts';
export { liveEventRoutes } from './live-events.routes.ts';
export { createPaymentService } from './payments.service.ts';
export { enqueuePaymentStep, startPaymentWorker } from './payment-processing.ts';
export { startDemoLive } from './demo-live.ts';
