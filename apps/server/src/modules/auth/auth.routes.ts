import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  AuthResult,
  ChallengeResponseRequest,
  ConfirmPasswordResetRequest,
  CsrfResponse,
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  MessageResponse,
  RefreshRequest,
  RefreshResponse,
  VerifyTokenRequest,
} from '@portal/contract/auth';
import { PasskeyOptionsResponse, PasskeySignInRequest } from '@portal/contract/passkeys';
import type { RequestCtx } from '../../lib/audit.repository.ts';
import { AppError } from '../../lib/errors.ts';
import { requestCtx } from '../../lib/request-ctx.ts';
import { csrfSessionOf } from '../../plugins/csrf.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { PasswordResetService } from './password-reset.service.ts';
import { REFRESH_TOKEN_HOURS, type SessionsService } from './sessions.service.ts';
import type { SignInService } from './sign-in.service.ts';

export const REFRESH_COOKIE = 'portal_refresh';

/** Sign-in, two-factor, sessions and password resets (portal-core §4, §7). */
export const authRoutes: FastifyPluginAsyncZod<{
  sessions: SessionsService;
  signIn: SignInService;
  passwordReset: PasswordResetService;
  /** the passkeys module's sign-in (a port: the module itself depends on the auth plugin, which depends on this module) */
  passkeys: {
    signInOptions(): Promise<PasskeyOptionsResponse>;
    signIn(input: PasskeySignInRequest, ctx: RequestCtx): Promise<AuthResult>;
  };
}> = async (app, { sessions, signIn, passwordReset, passkeys }) => {
  documentRoutes(app, { tag: 'auth', errors: [400, 401, 403, 423, 429] });
  const secure = app.config.NODE_ENV === 'production';
  const ctx = requestCtx;
  const limited = (max: number) => perMinute(max, AUTH_MESSAGES.tooManyLogins);

  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/api/v1/users',
      maxAge: REFRESH_TOKEN_HOURS * 3600,
    });

  /** A signed-in (or refreshed) session: the refresh token also goes out as the httpOnly cookie. */
  const withRefreshCookie = <T extends { refreshToken: string }>(reply: FastifyReply, result: T): T => {
    setRefreshCookie(reply, result.refreshToken);
    return result;
  };

  app.post(
    '/security/csrf',
    {
      config: { moduleErrors: false },
      schema: { operationId: 'csrf', summary: 'A request-forgery token (also set as a cookie)', response: { 200: CsrfResponse } },
    },
    async (request, reply) => ({ csrf: reply.generateCsrf({ userInfo: csrfSessionOf(request) }) }),
  );

  app.post(
    '/users/login',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'login',
        summary: 'Check e-mail and password; answers the next challenge',
        body: LoginRequest,
        response: { 200: LoginResponse },
      },
    },
    async (request) => signIn.login(request.body, ctx(request)),
  );

  app.post(
    '/users/verify-token',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'verifyToken',
        summary: 'Finish authenticator setup (MFA_SETUP)',
        body: VerifyTokenRequest,
        response: { 200: AuthResult },
      },
    },
    async (request, reply) => withRefreshCookie(reply, await signIn.verifyToken(request.body, ctx(request))),
  );

  app.post(
    '/users/challenge-response',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'challengeResponse',
        summary: 'Answer SOFTWARE_TOKEN_MFA with a code or a recovery code',
        body: ChallengeResponseRequest,
        response: { 200: AuthResult },
      },
    },
    async (request, reply) => withRefreshCookie(reply, await signIn.challengeResponse(request.body, ctx(request))),
  );

  app.post(
    '/users/passkey-options',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'Begin a sign-in with a passkey: the options for navigator.credentials.get, valid for five minutes',
        response: { 200: PasskeyOptionsResponse },
      },
    },
    async () => passkeys.signInOptions(),
  );

  app.post(
    '/users/passkey-sign-in',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'passkeySignIn',
        summary: 'Sign in with a passkey (both factors at once): the browser’s answer to the options',
        body: PasskeySignInRequest,
        response: { 200: AuthResult },
      },
    },
    async (request, reply) => withRefreshCookie(reply, await passkeys.signIn(request.body, ctx(request))),
  );

  app.post(
    '/users/refresh',
    {
      config: limited(app.config.REFRESH_RATE_LIMIT),
      schema: {
        operationId: 'refresh',
        summary: 'A new access token and the user as it is now; the refresh token rotates. An ended session answers 401 SessionEnded, saying why',
        body: RefreshRequest,
        response: { 200: RefreshResponse },
      },
    },
    async (request, reply) => {
      try {
        return withRefreshCookie(reply, await sessions.refresh(request.cookies[REFRESH_COOKIE] ?? request.body?.refreshToken, ctx(request)));
      } catch (err) {
        // only a refusal ends the browser's session; an outage (503), a slow-down (429) or a fault leaves the cookie,
        // so that the portal's next try renews with it
        if (err instanceof AppError && err.statusCode === 401) reply.clearCookie(REFRESH_COOKIE, { path: '/api/v1/users' });
        throw err;
      }
    },
  );

  app.post(
    '/users/logout',
    {
      schema: {
        operationId: 'logout',
        summary: 'End the session (revokes the refresh token family)',
        body: RefreshRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request, reply) => {
      await sessions.logout(request.cookies[REFRESH_COOKIE] ?? request.body?.refreshToken, ctx(request));
      reply.clearCookie(REFRESH_COOKIE, { path: '/api/v1/users' });
      return { message: 'Signed out' };
    },
  );

  app.post(
    '/users/forgot-password',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'forgotPassword',
        summary: 'E-mail a six-digit reset code (same answer for any e-mail)',
        body: ForgotPasswordRequest,
        response: { 200: MessageResponse },
      },
    },
    // answered at once: the code is made after (see forgotPassword)
    async (request) => {
      passwordReset.forgotPassword(request.body.email, ctx(request));
      return { message: AUTH_MESSAGES.forgotPasswordSent };
    },
  );

  app.post(
    '/users/confirm-password-reset',
    {
      config: limited(app.config.LOGIN_RATE_LIMIT),
      schema: {
        operationId: 'confirmPasswordReset',
        summary: 'Set a new password with the e-mailed code',
        body: ConfirmPasswordResetRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await passwordReset.confirmPasswordReset(request.body, ctx(request));
      return { message: 'Your password has been changed. Sign in with your new password.' };
    },
  );
};
