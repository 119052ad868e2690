import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES, type AccessClaims } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import type { App } from '../app.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { verifyAccessToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';

/** Who is calling, from the verified token and the user's current row: never from the request body. */
export type Auth = { userId: string; partnerId: string; role: Role; email: string; name: string };

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | undefined;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** users by "partnerId:userId", for authenticate; delete an entry when that user's role or status changes */
    userCache: TtlCache<unknown>;
  }
}

/** How long a user's row (role, status) is reused between requests; a change elsewhere shows within this time. */
export const AUTH_CACHE_MS = 5_000;

type CachedUser = { id: string; partner_id: string; role: string; status: string; email: string; name: string } | undefined;

export function registerAuth(app: App) {
  app.decorateRequest('auth', undefined);
  const users = new TtlCache<CachedUser>(AUTH_CACHE_MS);
  // a token whose signature was checked is not checked again for a few seconds (never past its expiry)
  const verified = new TtlCache<AccessClaims>(AUTH_CACHE_MS);
  app.decorate('userCache', users);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer (\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('Sign in to continue.', 'Unauthorized');
    const token = match[1];
    let claims = await verified.get(token, () => verifyAccessToken(app.keys.jwtSecret, token));
    if (claims.exp * 1000 <= Date.now()) {
      verified.delete(token);
      claims = await verifyAccessToken(app.keys.jwtSecret, token); // throws TokenExpired
    }
    // the user must still exist and be active: a deleted or deactivated user's token stops working at once
    const user = await users.get(`${claims.pid}:${claims.sub}`, () =>
      app.database.db
        .selectFrom('users')
        .select(['id', 'partner_id', 'role', 'status', 'email', 'name'])
        .where('partner_id', '=', claims.pid)
        .where('id', '=', claims.sub)
        .executeTakeFirst(),
    );
    if (!user || user.status !== 'active') throw unauthorized(AUTH_MESSAGES.invalidToken, 'InvalidToken');
    request.auth = { userId: user.id, partnerId: user.partner_id, role: user.role as Role, email: user.email, name: user.name };
  });
}

/** The caller, for routes behind app.authenticate. */
export function authOf(request: FastifyRequest): Auth {
  if (!request.auth) throw unauthorized('Sign in to continue.');
  return request.auth;
}

export function requireRole(auth: Auth, ...roles: Role[]): void {
  if (!roles.includes(auth.role)) {
    throw forbidden(roles.length === 1 && roles[0] === 'admin' ? 'Only an admin can do this.' : `Only ${roles.join(' or ')} users can do this.`);
  }
}
