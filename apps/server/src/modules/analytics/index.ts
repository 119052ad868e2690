/** The analytics module's face: the Overview's figures (GET partner/analytics). */
export { createAnalyticsService, type AnalyticsService } from './analytics.service.ts';
export { analyticsRoutes } from './analytics.routes.ts';
