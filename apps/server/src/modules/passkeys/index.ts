/** The passkeys module's face: the caller's own passkeys, and the service the sign-in routes use. */
export { passkeyRoutes } from './passkeys.routes.ts';
export { createPasskeysService, type PasskeysService } from './passkeys.service.ts';
export { createPasskeysRepository } from './passkeys.repository.ts';
