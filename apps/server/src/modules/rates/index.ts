/** The rates (enabled countries) module's face. */
export { rateRoutes } from './rates.routes.ts';
export { createRatesService, type RatesService } from './rates.service.ts';
