import type { FastifyReply } from 'fastify';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import type { App } from '../app.ts';
import { API_PREFIX } from '../lib/constants.ts';
import { forbidden } from '../lib/errors.ts';
import { randomToken, safeEqual } from '../lib/tokens.ts';

export const CSRF_COOKIE = 'portal_csrf';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit request-forgery protection: POST /security/csrf hands out a token and sets the same value in an
 * httpOnly, SameSite=Strict cookie; every mutating API call must echo it in x-csrf-token. Another site can neither
 * read the token nor make the browser send the cookie.
 */
export function registerCsrf(app: App) {
  app.addHook('onRequest', async (request) => {
    if (!MUTATING.has(request.method) || !request.url.startsWith(`${API_PREFIX}/`)) return;
    if (request.url.split('?')[0] === `${API_PREFIX}/security/csrf`) return;
    const header = request.headers['x-csrf-token'];
    const cookie = request.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || !header || !cookie || !safeEqual(header, cookie)) {
      throw forbidden(AUTH_MESSAGES.csrf, 'CsrfTokenInvalid');
    }
  });
}

/** Hands out the token: the one the browser holds already, or a new one, set again as the cookie. */
export function issueCsrf(reply: FastifyReply, existing: string | undefined, secure: boolean): string {
  const token = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomToken();
  void reply.setCookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: '/api' });
  return token;
}
