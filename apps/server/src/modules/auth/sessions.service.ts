import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { AUTH_MESSAGES, type SessionUser } from '@portal/contract/auth';
import type { Role, UserStatus } from '@portal/contract/domain';
import type { DB, UserRow } from '../../db/schema.ts';
import type { RequestCtx } from '../../lib/audit.repository.ts';
import { describeBrowser, SECURITY_MESSAGES, type ActiveSession } from '@portal/contract/security';
import type { Auth } from '../../lib/access.ts';
import { AppError, unauthorized } from '../../lib/errors.ts';
import { decrypt, encrypt, type Keys } from '../../lib/keys.ts';
import { ACCESS_TOKEN_SECONDS, randomToken, safeEqual, sha256, signAccessToken } from '../../lib/tokens.ts';
import type { AuthExec } from './auth.repository.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import { sessionEnd, sessionEnded, type EndReason } from './session-end.ts';

export const REFRESH_TOKEN_HOURS = 12;
/**
 * A rotated refresh token that comes back within this time answers the same new token: two tabs refreshing at once
 * are one person, and so is a portal sending its token again after an outage took the answer of a rotation that
 * committed (it tries again after Retry-After and its reconnect probe: a failover takes up to about 20 s). After it,
 * a rotated token coming back means a copy exists, and the session ends for both holders. 60 s is the longest grace
 * the common identity providers allow.
 */
export const REFRESH_REUSE_SECONDS = 60;

export type SessionsDeps = {
  repo: SessionsRepository;
  keys: Keys;
  now: () => number;
  /** the life of an access token (ACCESS_TOKEN_SECONDS: 15 minutes unless a test shortens it) */
  accessTokenSeconds?: number;
  /** called after sessions ended, so that every server instance stops accepting their access tokens */
  onSessionsEnded: (sessionIds: string[]) => Promise<void>;
};
type Ctx = RequestCtx;

const invalidRefresh = () => unauthorized(AUTH_MESSAGES.invalidRefresh, 'InvalidRefreshToken');

type UserFields = Pick<UserRow, 'id' | 'partner_id' | 'role' | 'email' | 'name' | 'status'>;
const toSessionUser = (u: UserFields): SessionUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role as Role,
  partnerId: u.partner_id,
  status: u.status as UserStatus,
});

function parseRefreshToken(token: string | undefined) {
  const match = token ? /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

/** Sessions: the access token (tied to its session by `sid`) and the refresh token that rotates within it. */
/**
 * What the request authentication (plugins/auth.ts) and the live event stream read of a session, its user and its
 * partner, as they are now: the auth module's port, built by the composition root.
 */
export type SessionReads = Pick<SessionsRepository, 'sessionUser' | 'session' | 'activeUser' | 'partnerName'>;

export function createSessionsService(deps: SessionsDeps) {
  const { repo, keys } = deps;
  const accessTokenSeconds = deps.accessTokenSeconds ?? ACCESS_TOKEN_SECONDS;
  const now = () => new Date(deps.now());
  const refreshExpiry = () => new Date(deps.now() + REFRESH_TOKEN_HOURS * 3600 * 1000);
  const ends = (reason: Parameters<typeof sessionEnded>[0], partnerId: string) => sessionEnded(reason, partnerId, repo.partnerName);

  const accessToken = (user: Pick<UserRow, 'id' | 'partner_id' | 'role' | 'email' | 'name'>, sid: string) =>
    signAccessToken(
      keys.jwtSecret,
      { sub: user.id, pid: user.partner_id, role: user.role as Role, email: user.email, name: user.name, sid },
      accessTokenSeconds,
    );

  /** A new refresh token of a session: the string for the client and the row to store (only its hash is kept). */
  function mintRefreshToken(user: { partner_id: string; id: string }, sessionId: string) {
    const id = crypto.randomUUID();
    const secret = randomToken();
    const row = { partnerId: user.partner_id, id, userId: user.id, familyId: sessionId, tokenHash: sha256(secret), expiresAt: refreshExpiry() };
    return { token: `${id}.${secret}`, store: (exec: AuthExec) => repo.insertRefreshToken(exec, row) };
  }

  return {
    /** Opens a session for a user who has just proven who they are (inside the transaction that proved it). */
    async start(trx: Transaction<DB>, user: UserRow, ctx: Ctx) {
      const sessionId = crypto.randomUUID();
      await repo.createSession(trx, {
        partnerId: user.partner_id,
        id: sessionId,
        userId: user.id,
        expiresAt: refreshExpiry(),
        now: now(),
        ip: ctx.ip,
        userAgent: ctx.userAgent ?? null,
      });
      const refresh = mintRefreshToken(user, sessionId);
      await refresh.store(trx);
      return { accessToken: await accessToken(user, sessionId), expiresIn: accessTokenSeconds, refreshToken: refresh.token };
    },

    /**
     * A new access token and the next refresh token of the session, with the user as it is now. A token that is not
     * one of ours is InvalidRefreshToken; one of a session that ended (or whose user is no longer active) answers
     * SessionEnded with the reason in words.
     */
    async refresh(token: string | undefined, { ip }: Ctx): Promise<{ accessToken: string; expiresIn: number; refreshToken: string; user: SessionUser }> {
      const parsed = parseRefreshToken(token);
      if (!parsed) throw invalidRefresh();
      const row = await repo.refreshToken(parsed.id);
      if (!row || !safeEqual(row.token_hash, sha256(parsed.secret))) throw invalidRefresh();
      const user = await repo.sessionUser(row.partner_id, row.family_id, row.user_id);
      if (!user) throw invalidRefresh();
      const ended = sessionEnd({ ...user, revoked_at: user.revoked_at ?? row.revoked_at });
      if (ended) throw await ends(ended, row.partner_id);
      if (row.expires_at.getTime() <= deps.now()) throw await ends('expired', row.partner_id);
      const answer = async (refreshToken: string) => ({
        accessToken: await accessToken(user, row.family_id),
        expiresIn: accessTokenSeconds,
        refreshToken,
        user: toSessionUser(user),
      });

      const next = mintRefreshToken(user, row.family_id);
      const successor = await repo.transaction(async (trx) => {
        const claimed = await repo.claimRefreshToken(trx, row, { now: now(), successorEnc: encrypt(keys.encryptionKey, next.token) });
        if (!claimed) return undefined;
        await next.store(trx);
        await repo.extendSession(trx, row.partner_id, row.family_id, { expiresAt: refreshExpiry(), now: now(), ip });
        return next.token;
      });
      if (successor) return answer(successor);

      // used already: read it again, now that the request that used it has committed
      const used = await repo.refreshToken(row.id);
      if (!used) throw invalidRefresh();
      if (used.revoked_at) {
        // the session ended meanwhile (a logout, a removal, ...): say why
        const state = await repo.sessionUser(row.partner_id, row.family_id, row.user_id);
        throw await ends((state && sessionEnd({ ...state, revoked_at: state.revoked_at ?? used.revoked_at })) || 'expired', row.partner_id);
      }
      if (used.used_at && used.successor_enc && deps.now() - used.used_at.getTime() <= REFRESH_REUSE_SECONDS * 1000) {
        return answer(decrypt(keys.encryptionKey, used.successor_enc));
      }
      // a rotated token came back later: someone holds a copy. End the whole session, for both holders.
      const ids = await repo.transaction(async (trx) => {
        const ids = await repo.revokeSessions(trx, { partnerId: row.partner_id, sessionId: row.family_id }, now(), 'refresh-reuse');
        await repo.audit(
          {
            partnerId: row.partner_id,
            actorUserId: row.user_id,
            actor: 'system',
            action: 'session.refresh_token_reused',
            details: { familyId: row.family_id },
            ip,
          },
          trx,
        );
        return ids;
      });
      await deps.onSessionsEnded(ids);
      throw await ends('refresh-reuse', row.partner_id);
    },

    async logout(token: string | undefined, ctx: Ctx) {
      const parsed = parseRefreshToken(token);
      if (!parsed) return;
      const row = await repo.refreshToken(parsed.id);
      if (!row || !safeEqual(row.token_hash, sha256(parsed.secret))) return;
      const ended = await repo.transaction(async (trx) => {
        const ids = await repo.revokeSessions(trx, { partnerId: row.partner_id, sessionId: row.family_id }, now(), 'logout');
        await repo.audit({ partnerId: row.partner_id, actorUserId: row.user_id, actor: 'user', action: 'logout', ...ctx }, trx);
        return ids;
      });
      await deps.onSessionsEnded(ended);
    },

    /** The caller's sessions that are still open: the one of this request first (marked), then the one seen last first. */
    async listOwn(auth: Auth): Promise<ActiveSession[]> {
      const rows = await repo.openSessions(auth.partnerId, auth.userId, now());
      const ordered = [...rows.filter((r) => r.id === auth.sessionId), ...rows.filter((r) => r.id !== auth.sessionId)];
      return ordered.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        lastSeenAt: r.last_seen_at.toISOString(),
        browser: describeBrowser(r.user_agent),
        ip: r.ip,
        current: r.id === auth.sessionId,
      }));
    },

    /**
     * Ends one of the caller's other sessions (a browser left signed in elsewhere): its tokens stop at once and its
     * open screens are told why. The session of this request is ended by signing out; another user's, or one that
     * ended already, is not found.
     */
    async endOwn(auth: Auth, sessionId: string, ctx: Ctx): Promise<void> {
      if (sessionId === auth.sessionId) throw new AppError(409, 'CurrentSession', SECURITY_MESSAGES.currentSession);
      const open = (await repo.openSessions(auth.partnerId, auth.userId, now())).find((r) => r.id === sessionId);
      if (!open) throw new AppError(404, 'SessionNotFound', SECURITY_MESSAGES.sessionNotFound);
      const ended = await repo.transaction(async (trx) => {
        const ids = await repo.revokeSessions(trx, { partnerId: auth.partnerId, userId: auth.userId, sessionId }, now(), 'ended-remotely');
        if (ids.length === 0) return ids;
        await repo.audit(
          {
            partnerId: auth.partnerId,
            actorUserId: auth.userId,
            actor: auth.email,
            action: 'session.ended',
            target: sessionId,
            details: { browser: describeBrowser(open.user_agent), ip: open.ip },
            ...ctx,
          },
          trx,
        );
        return ids;
      });
      if (ended.length === 0) throw new AppError(404, 'SessionNotFound', SECURITY_MESSAGES.sessionNotFound);
      await deps.onSessionsEnded(ended);
    },

    /**
     * Ends every session of a user (password reset or changed, access removed), keeping why; call inside the
     * change's transaction, then `onSessionsEnded` with the ids once it has committed.
     */
    endUserSessions: (trx: Transaction<DB>, user: { partner_id: string; id: string }, reason: EndReason) =>
      repo.revokeSessions(trx, { partnerId: user.partner_id, userId: user.id }, now(), reason),

    onSessionsEnded: deps.onSessionsEnded,
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
