/** The reports module's face: its routes, service (with the expired files the cleanup job removes) and builders. */
export { reportRoutes } from './reports.routes.ts';
export { createReportsService, type ReportsService } from './reports.service.ts';
export { requeueOrphanedReports, startReportWorker } from './report-worker.ts';
