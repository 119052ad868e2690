import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { EndReason } from './session-end.ts';
import { authBase, type AuthExec as Exec } from './auth.repository.ts';

/** The queries of sessions: their rows and refresh tokens, their ends, and what authenticate reads on every request. */
export function createSessionsRepository(db: Kysely<DB>) {
  const { transaction, audit } = authBase(db);
  return {
    transaction,
    audit,

    // ── sessions and refresh tokens ──

    createSession: (
      exec: Exec,
      values: { partnerId: string; id: string; userId: string; expiresAt: Date; now: Date; ip: string | null; userAgent: string | null },
    ) =>
      exec
        .insertInto('auth_sessions')
        .values({
          partner_id: values.partnerId,
          id: values.id,
          user_id: values.userId,
          expires_at: values.expiresAt,
          created_at: values.now,
          last_seen_at: values.now,
          ip: values.ip,
          user_agent: values.userAgent,
        })
        .execute(),

    /** A user's sessions that are still open, the one seen last first. */
    openSessions: (partnerId: string, userId: string, now: Date) =>
      db
        .selectFrom('auth_sessions')
        .select(['id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
        .where('partner_id', '=', partnerId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id')
        .execute(),

    /** What authenticate needs of a session: whose it is, whether it has ended and why. */
    session: (partnerId: string, id: string) =>
      db
        .selectFrom('auth_sessions')
        .select(['user_id', 'revoked_at', 'ended_reason'])
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** A refresh: the session lasts longer, and was seen now from this address. */
    extendSession: (exec: Exec, partnerId: string, id: string, values: { expiresAt: Date; now: Date; ip: string | null }) =>
      exec
        .updateTable('auth_sessions')
        .set({ expires_at: values.expiresAt, last_seen_at: values.now, ...(values.ip ? { ip: values.ip } : {}) })
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .execute(),

    /**
     * Ends sessions (one, or every session of a user) and their refresh tokens, keeping why; returns the ids that were
     * open.
     */
    async revokeSessions(exec: Exec, where: { partnerId: string; sessionId?: string; userId?: string }, now: Date, reason: EndReason) {
      let q = exec
        .updateTable('auth_sessions')
        .set({ revoked_at: now, ended_reason: reason })
        .where('partner_id', '=', where.partnerId)
        .where('revoked_at', 'is', null);
      if (where.sessionId) q = q.where('id', '=', where.sessionId);
      if (where.userId) q = q.where('user_id', '=', where.userId);
      const ended = await q.returning('id').execute();
      let tokens = exec.updateTable('refresh_tokens').set({ revoked_at: now }).where('partner_id', '=', where.partnerId).where('revoked_at', 'is', null);
      if (where.sessionId) tokens = tokens.where('family_id', '=', where.sessionId);
      if (where.userId) tokens = tokens.where('user_id', '=', where.userId);
      await tokens.execute();
      return ended.map((r) => r.id);
    },

    insertRefreshToken: (exec: Exec, values: { partnerId: string; id: string; userId: string; familyId: string; tokenHash: string; expiresAt: Date }) =>
      exec
        .insertInto('refresh_tokens')
        .values({
          partner_id: values.partnerId,
          id: values.id,
          user_id: values.userId,
          family_id: values.familyId,
          token_hash: values.tokenHash,
          expires_at: values.expiresAt,
        })
        .execute(),

    refreshToken: (id: string) => db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Marks the token used and keeps its successor (encrypted) for the reuse window; undefined when it was used already. */
    claimRefreshToken: (trx: Transaction<DB>, row: { partner_id: string; id: string }, values: { now: Date; successorEnc: string }) =>
      trx
        .updateTable('refresh_tokens')
        .set({ used_at: values.now, successor_enc: values.successorEnc })
        .where('partner_id', '=', row.partner_id)
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .returning('id')
        .executeTakeFirst(),

    // ── what authenticate reads on every request ──

    /**
     * The session (whether it ended, and why) and its user as they are now, in one round trip: undefined when either
     * is gone. Authenticate reads it on every request on a PostgreSQL server; a refresh and an open event stream too.
     */
    sessionUser: (partnerId: string, sessionId: string, userId: string) =>
      db
        .selectFrom('auth_sessions as s')
        .innerJoin('users as u', (j) => j.onRef('u.partner_id', '=', 's.partner_id').onRef('u.id', '=', 's.user_id'))
        .select(['u.id', 'u.partner_id', 'u.role', 'u.status', 'u.email', 'u.name', 's.revoked_at', 's.ended_reason'])
        .where('s.partner_id', '=', partnerId)
        .where('s.id', '=', sessionId)
        .where('s.user_id', '=', userId)
        .executeTakeFirst(),

    /** The partner's name, for the words of a removed user's ended session. */
    partnerName: async (partnerId: string) => (await db.selectFrom('partners').select('name').where('id', '=', partnerId).executeTakeFirst())?.name,

    activeUser: (partnerId: string, userId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'partner_id', 'role', 'status', 'email', 'name'])
        .where('partner_id', '=', partnerId)
        .where('id', '=', userId)
        .executeTakeFirst(),
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
