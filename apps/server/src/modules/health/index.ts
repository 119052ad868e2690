/** The health module's face: the probes' routes. */
export { healthRoutes } from './health.routes.ts';
