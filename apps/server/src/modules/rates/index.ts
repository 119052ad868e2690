/** The rates (enabled countries) module's face. */
export { rateRoutes } from './rates.routes.ts';
export { createRatesService } from './rates.service.ts';
