/** The withdrawals module's face: withdrawals of the USD balance to a settlement wallet, and their worker. */
export { withdrawalRoutes } from './withdrawals.routes.ts';
export { createWithdrawalService } from './withdrawals.service.ts';
export { enqueueWithdrawalStep, startWithdrawalWorker } from './withdrawal-processing.ts';
export { simulatedPayer } from './payer.ts';
