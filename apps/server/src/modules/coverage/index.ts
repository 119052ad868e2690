/** The coverage module's face: what other modules and the composition root may use of it. */
export { coverageRoutes } from './coverage.routes.ts';
export { createCoverageService, type CoverageService } from './coverage.service.ts';
