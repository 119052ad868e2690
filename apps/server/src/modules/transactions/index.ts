/** The transactions module's face: search, and the row reads and CSV rows that reports build from. */
export { transactionRoutes } from './transactions.routes.ts';
export { createTransactionsService } from './transactions.service.ts';
export { conditions, scrollBatch, tableRef } from './transactions.repository.ts';
export { toRows } from './transactions.rows.ts';
