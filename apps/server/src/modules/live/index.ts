/** The live module's face: the partner's event stream (GET /api/v1/events), which tells an open portal what changed. */
export { liveEventRoutes } from './live-events.routes.ts';
