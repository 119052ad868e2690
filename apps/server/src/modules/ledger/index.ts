/**
 * The ledger module's face: the partner's money (balances, locks, bookings, statements, the reconciliation and the low
 * balance state) as one port other modules are handed, and the Balance screen's routes.
 */
export { createLedger, type Ledger } from './ledger.service.ts';
export { createBalanceService } from './balance.service.ts';
export { balanceRoutes } from './balance.routes.ts';
