/** The start data's face: one call for what every signed-in screen reads at start. */
export { startRoutes } from './start.routes.ts';
export { createStartService } from './start.service.ts';
