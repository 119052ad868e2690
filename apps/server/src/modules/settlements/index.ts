/**
 * The settlements module's face: withdrawals, their worker, and the partner's ledger, which payments book on in
 * their own transactions.
 */
export { settlementRoutes } from './settlements.routes.ts';
export { createSettlementService } from './settlements.service.ts';
export { enqueueSettlementStep, startSettlementWorker } from './settlement-processing.ts';
export { simulatedPayer } from './payer.ts';
export { accountBalance, countAccounts, insertLedgerEntry, lockAccount, reconcileAccounts } from './settlements.repository.ts';
