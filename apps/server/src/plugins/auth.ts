import { ACCESS_MESSAGES } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import { API_KEY_MESSAGES } from '@portal/contract/api-keys';
import { AUTH_MESSAGES, type AccessClaims } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import { isApiKeyCaller, type Auth, type Caller } from '../lib/access.ts';
import { AUTH_CACHE_MS } from '../lib/constants.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { verifyAccessToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { sessionEnd, sessionEnded, type SessionReads } from '../modules/auth/index.ts';
import { PORTAL_MODE_HEADER } from '@portal/contract/test-mode';
import type { App } from '../types/app.ts';

/** The Fastify side of access: who calls, read from the request (the rules themselves are in lib/access.ts). */

type CachedUser = { id: string; partner_id: string; role: string; status: string; email: string; name: string } | undefined;
type CachedSession = { user_id: string; revoked_at: Date | null; ended_reason: string | null } | undefined;
/** The user of a token's session as it is now, and whether (and why) the session ended. */
type SessionRead = NonNullable<CachedUser> & { revoked_at: Date | null; ended_reason: string | null };

/** The account's test partner, made on first need and kept in memory (the partners module's, handed in by the composition root). */
type TestSides = { testPartnerOf(livePartnerId: string): Promise<string> };

export function registerAuth(app: App, reads: SessionReads, testPartners: TestSides) {
  app.decorateRequest('auth', undefined);
  // the session reads the composition root built (the auth module's port)
  const repo = reads;
  const users = new TtlCache<CachedUser>(AUTH_CACHE_MS);
  const sessions = new TtlCache<CachedSession>(AUTH_CACHE_MS);
  // a token whose signature was checked is not checked again for a few seconds (never past its expiry)
  const verified = new TtlCache<AccessClaims>(AUTH_CACHE_MS);
  app.cacheBus.attach('user', users);
  app.cacheBus.attach('session', sessions);
  /** Undefined when the token names no session of its user (or the user is gone). */
  const current = async (claims: AccessClaims): Promise<SessionRead | undefined> => {
    if (app.database.kind === 'postgres') return repo.sessionUser(claims.pid, claims.sid, claims.sub);
    const [session, user] = await Promise.all([
      sessions.get(claims.sid, () => repo.session(claims.pid, claims.sid)),
      users.get(`${claims.pid}:${claims.sub}`, () => repo.activeUser(claims.pid, claims.sub)),
    ]);
    if (!session || !user || session.user_id !== claims.sub) return undefined;
    return { ...user, revoked_at: session.revoked_at, ended_reason: session.ended_reason };
  };
  app.decorate('authenticate', async (request: FastifyRequest) => {
    // a signed API-key call (only ever marked on a partner-API route) is verified by plugins/api-key-auth.ts
    if (request.apiKeyCall) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer (\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized(ACCESS_MESSAGES.signIn, 'Unauthorized');
    const token = match[1];
    let claims = await verified.get(token, () => verifyAccessToken(app.keys.jwtSecret, token));
    if (claims.exp * 1000 <= Date.now()) {
      verified.delete(token);
      claims = await verifyAccessToken(app.keys.jwtSecret, token); // throws TokenExpired
    }
    // the session must still be open (a logout ends its tokens at once) and the user still exist and be active;
    // when not, the 401 says why (SessionEnded), so that the portal can say it in words
    const user = await current(claims);
    if (!user) throw unauthorized(AUTH_MESSAGES.invalidToken, 'InvalidToken');
    const ended = sessionEnd(user);
    if (ended) throw await sessionEnded(ended, user.partner_id, repo.partnerName);
    const auth: Auth = { userId: user.id, partnerId: user.partner_id, role: user.role as Role, email: user.email, name: user.name, sessionId: claims.sid };
    // the portal's test view: a route that serves the partner's data serves its test side (made on first need)
    if (request.headers[PORTAL_MODE_HEADER] === 'test' && request.routeOptions.config.testData) {
      auth.accountId = user.partner_id;
      auth.partnerId = await testPartners.testPartnerOf(user.partner_id);
    }
    request.auth = auth;
  });
}

/** The signed-in user, for routes behind app.authenticate that API keys cannot call. */
export function authOf(request: FastifyRequest): Auth {
  const caller = callerOf(request);
  if (isApiKeyCaller(caller)) throw forbidden(API_KEY_MESSAGES.notAccepted);
  return caller;
}

/** The user or the API key calling a partner-API route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.auth) throw unauthorized(ACCESS_MESSAGES.signIn);
  return request.auth;
}
