/** The settlement-wallets module's face: its routes, service, screening worker, and the wallet directory withdrawals read. */
export { walletRoutes } from './wallets.routes.ts';
export { createWalletDirectory, createWalletService, type WalletDirectory } from './wallets.service.ts';
export { blocklistScreener, enqueueScreening, startWalletScreeningWorker } from './wallet-screening.ts';
