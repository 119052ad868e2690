import crypto from 'node:crypto';
import fastifyCsrf from '@fastify/csrf-protection';
import CsrfTokens from '@fastify/csrf';
import { decodeJwt } from 'jose';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { API_PREFIX } from '../lib/constants.ts';
import { ringKeys, type KeyRing } from '../lib/keys.ts';
import type { App } from '../types/app.ts';

export const CSRF_COOKIE = 'portal_csrf';
const MUTATING = ['POST', 'PUT', 'PATCH', 'DELETE'];
const ISSUE_PATH = `${API_PREFIX}/security/csrf`;

/**
 * Request-forgery protection with @fastify/csrf-protection: POST /security/csrf keeps a random secret in a signed,
 * httpOnly, SameSite=Strict cookie (signed with a key derived from the server's, so a value planted by someone else is
 * refused) and answers a token made from that secret; every state-changing API route checks the x-csrf-token header
 * against the cookie's secret; a read sent as a POST (route config `readOnly`: the transaction search) is not checked.
 * The check is attached to each route as it is declared (onRoute), so no spelling of a
 * path can step around it. The token is bound to the session of the bearer token the request carries (`sid`; none
 * before sign-in), both when it is issued and when it is checked: a pair issued to another browser, or before this
 * session began, is refused (403 `CsrfTokenInvalid`), and the portal fetches a new one (with its bearer) and sends again.
 * Register before the routes.
 */
export async function registerCsrf(app: App) {
  await app.register(fastifyCsrf, {
    // a token is bound to the session it was issued for (none before sign-in): another session's pair is refused
    getUserInfo: csrfSessionOf,
    csrfOpts: { hmacKey: csrfHmacKey(app.keys.jwtSecret.key) },
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
    // a read sent as a POST changes nothing a forged request could change (and its reply is the page's own: CORS)
    if (route.config?.readOnly) return;
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
    if (request.apiKeyCall || issuedWithAcceptedKey(request)) return done();
    return app.csrfProtection.call(app, request, reply, done);
  }
  // during a key rotation, a token another instance issued with a key this one only accepts
  const accepted = app.keys.jwtSecret.accepted.map(({ key }) => new CsrfTokens({ hmacKey: csrfHmacKey(key), userInfo: true }));
  function issuedWithAcceptedKey(request: FastifyRequest): boolean {
    if (accepted.length === 0) return false;
    const cookie = request.cookies[CSRF_COOKIE];
    const unsigned = cookie ? request.unsignCookie(cookie) : undefined;
    const secret = unsigned?.valid ? unsigned.value : null;
    const token = request.headers['x-csrf-token'];
    if (!secret || typeof token !== 'string') return false;
    return accepted.some((tokens) => tokens.verify(secret, token, csrfSessionOf(request)));
  }
}

const csrfHmacKey = (jwtSecret: Buffer) => crypto.createHmac('sha256', jwtSecret).update('csrf-session-binding').digest('base64');

/**
 * The keys that sign cookies, derived from the token-signing keys so that they need no configuration of their own:
 * the current one signs, and a cookie signed with a key the ring still accepts is read.
 */
export const cookieSecret = (jwtSecret: KeyRing) =>
  ringKeys(jwtSecret).map(({ key }) => crypto.createHmac('sha256', key).update('cookie-signing').digest('base64'));

/** The binding of a token asked for without a session (the library refuses an empty one). */
const NO_SESSION = 'anonymous';

/**
 * The session a request's bearer token names (its `sid` claim), `anonymous` when it has none (a token before
 * sign-in). Read without checking the signature: the binding only needs the request's own claim, and the bearer
 * itself is verified by the authentication that follows (a forged one gets nothing). An expired token still names its
 * session, so a refresh keeps the token.
 */
export function csrfSessionOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return NO_SESSION;
  try {
    const { sid } = decodeJwt(header.slice(7));
    return typeof sid === 'string' && sid !== '' ? sid : NO_SESSION;
  } catch {
    return NO_SESSION;
  }
}
