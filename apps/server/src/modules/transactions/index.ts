/** The transactions module's face: search, and the row reads and CSV rows that reports build from. */
export { transactionRoutes } from './transactions.routes.ts';
export { createTransactionsService, searchRows } from './transactions.service.ts';
export { toRows } from './transactions.rows.ts';
