import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_MESSAGES, type ApiKeyPermission } from '@portal/contract/api-keys';
import { AUTH_MESSAGES, type AccessClaims } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import type { App } from '../app.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { verifyAccessToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { createAuthRepository } from '../modules/auth/auth.repository.ts';
import { sessionEnd, sessionEnded } from '../modules/auth/session-end.ts';

/** Who is calling, from the verified token and the user's current row: never from the request body. */
export type Auth = { userId: string; partnerId: string; role: Role; email: string; name: string; sessionId: string };

/**
 * A partner's server calling with an API key (plugins/api-key-auth.ts): no user; the key is the actor. Only routes
 * of the partner API (route config `apiKey`) ever see one.
 */
export type ApiKeyAuth = { kind: 'apiKey'; partnerId: string; keyId: string; apiKey: string; name: string; permissions: ApiKeyPermission[] };

/** Either kind of caller of a partner-API route. */
export type Caller = Auth | ApiKeyAuth;

export const isApiKeyCaller = (caller: Caller): caller is ApiKeyAuth => 'kind' in caller && caller.kind === 'apiKey';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Caller | undefined;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * On the embedded database (one process serves it) a user's row and a session's state are reused between requests
 * for this long, and every change drops its entry at once through the cache bus (`user` by "partnerId:userId",
 * `session` by session id). On a PostgreSQL server several instances may serve, and a notification could arrive a
 * moment after the next request: there the session and its user are read on every request, in one query, so that a
 * logout, a deletion or a role change holds on every instance at once.
 */
export const AUTH_CACHE_MS = 5_000;

type CachedUser = { id: string; partner_id: string; role: string; status: string; email: string; name: string } | undefined;
type CachedSession = { user_id: string; revoked_at: Date | null; ended_reason: string | null } | undefined;
/** The user of a token's session as it is now, and whether (and why) the session ended. */
type SessionRead = NonNullable<CachedUser> & { revoked_at: Date | null; ended_reason: string | null };

export function registerAuth(app: App) {
  app.decorateRequest('auth', undefined);
  const repo = createAuthRepository(app.database.db);
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
    if (!match?.[1]) throw unauthorized('Sign in to continue.', 'Unauthorized');
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
    request.auth = { userId: user.id, partnerId: user.partner_id, role: user.role as Role, email: user.email, name: user.name, sessionId: claims.sid };
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
  if (!request.auth) throw unauthorized('Sign in to continue.');
  return request.auth;
}

/** Who made a change, for the audit trail: the user, or the API key (no user). */
export function actorOf(caller: Caller): { actorUserId: string | null; actor: string } {
  return isApiKeyCaller(caller) ? { actorUserId: null, actor: `api key ${caller.apiKey}` } : { actorUserId: caller.userId, actor: caller.email };
}

/**
 * A change that users of some roles, or API keys with a permission, may make. The key's permission was checked
 * when the call was verified; it is checked again here so that the rule does not rest on the route's declaration.
 */
export function requireAccess(caller: Caller, rule: { roles: readonly Role[]; permission: ApiKeyPermission }): void {
  if (!isApiKeyCaller(caller)) return requireRole(caller, ...rule.roles);
  if (!caller.permissions.includes(rule.permission)) throw forbidden(API_KEY_MESSAGES.permission(rule.permission), 'ApiKeyPermissionDenied');
}

export function requireRole(auth: Auth, ...roles: Role[]): void {
  if (!roles.includes(auth.role)) {
    throw forbidden(roles.length === 1 && roles[0] === 'admin' ? 'Only an admin can do this.' : `Only ${roles.join(' or ')} users can do this.`);
  }
}
