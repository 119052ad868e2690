import crypto from 'node:crypto';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { API_PREFIX } from '../lib/constants.ts';
import type { App } from '../types/app.ts';

export const CSRF_COOKIE = 'portal_csrf';
const MUTATING = ['POST', 'PUT', 'PATCH', 'DELETE'];
const ISSUE_PATH = `${API_PREFIX}/security/csrf`;

/**
 * Request-forgery protection with @fastify/csrf-protection: POST /security/csrf keeps a random secret in a signed,
 * httpOnly, SameSite=Strict cookie (signed with a key derived from the server's, so a value planted by someone else is
 * refused) and answers a token made from that secret; every state-changing API route checks the x-csrf-token header
 * against the cookie's secret. The check is attached to each route as it is declared (onRoute), so no spelling of a
 * path can step around it. Register before the routes.
 */
export async function registerCsrf(app: App) {
  await app.register(fastifyCsrf, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'strict', secure: app.config.NODE_ENV === 'production', path: '/api' },
    getToken: (request) => {
      const header = request.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
  });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => MUTATING.includes(m)) || !route.url.startsWith(`${API_PREFIX}/`) || route.url === ISSUE_PATH) return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [csrfUnlessSignedByKey, ...existing];
  });
  /**
   * Request-forgery tokens are for browsers. A partner-API call signed with an API key carries no cookie and no
   * token: it is marked (plugins/api-key-auth.ts) only on a route that accepts keys, only when the key headers are
   * there and no bearer token is, and its key and signature are verified before validation: a marked request that
   * fails that check never runs. Every other request (cookie, bearer, none) is checked here.
   */
  function csrfUnlessSignedByKey(this: unknown, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (request.apiKeyCall) return done();
    return app.csrfProtection.call(app, request, reply, done);
  }
}

/** The key that signs cookies, derived from the token-signing key so that it needs no configuration of its own. */
export const cookieSecret = (jwtSecret: Buffer) => crypto.createHmac('sha256', jwtSecret).update('cookie-signing').digest('base64');
