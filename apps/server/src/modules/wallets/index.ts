/** The settlement-wallets module's face: its routes, service, screening worker, and the wallet reads withdrawals need. */
export { walletRoutes } from './wallets.routes.ts';
export { createWalletService } from './wallets.service.ts';
export { blocklistScreener, enqueueScreening, startWalletScreeningWorker } from './wallet-screening.ts';
export { findWallet, liveWalletsByAddress } from './wallets.repository.ts';
