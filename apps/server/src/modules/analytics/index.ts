/** The analytics module's face: the Overview's figures (GET partner/analytics). */
export { createAnalyticsService } from './analytics.service.ts';
export { analyticsRoutes } from './analytics.routes.ts';
