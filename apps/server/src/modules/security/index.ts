/** The security module's face: the security history and the caller's own sessions. */
export { securityRoutes } from './security.routes.ts';
export { createSecurityService } from './security.service.ts';
