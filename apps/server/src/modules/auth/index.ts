/** The auth module's face: what other modules, plugins and the composition root may use of it. */
export { authRoutes } from './auth.routes.ts';
export { createPasswordResetService, type PasswordResetService } from './password-reset.service.ts';
export { createSessionsService, type SessionReads, type SessionsService } from './sessions.service.ts';
export { createSignInService } from './sign-in.service.ts';
export { sessionEnd, sessionEnded } from './session-end.ts';
