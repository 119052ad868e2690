/** The reports module's face: its routes, service and builders, and what the cleanup job removes. */
export { reportRoutes } from './reports.routes.ts';
export { createReportsService } from './reports.service.ts';
export { requeueOrphanedReports, startReportWorker } from './report-worker.ts';
export { expiredReportFiles, forgetReportFile } from './reports.repository.ts';
