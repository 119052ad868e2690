/** The payments module's face: its routes, service and workers. */
export { paymentRoutes } from './payments.routes.ts';
export { createPaymentService } from './payments.service.ts';
export { enqueuePaymentStep, startPaymentWorker } from './payment-processing.ts';
export { startDemoLive } from './demo-live.ts';
