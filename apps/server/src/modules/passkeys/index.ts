/** The passkeys module's face: the caller's own passkeys, and the service that also serves the sign-in routes. */
export { passkeyRoutes } from './passkeys.routes.ts';
export { createPasskeysService } from './passkeys.service.ts';
