/** The fiat-wallets module's face: what other modules, the CLI and the composition root may use of it. */
export { fiatWalletRoutes } from './fiat-wallets.routes.ts';
export { createFiatWalletsService } from './fiat-wallets.service.ts';
