import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, UserRow } from '../../db/schema.ts';
import { auditChange, type AuditEvent } from '../../lib/audit.repository.ts';
import type { EndReason } from './session-end.ts';

type Exec = Kysely<DB> | Transaction<DB>;
export type AuthExec = Exec;

/** Every query of sign-in, sessions and password resets. Rules live in the services; this file only reads and writes. */
export function createAuthRepository(db: Kysely<DB>) {
  const user = (exec: Exec, partnerId: string, userId: string) => exec.updateTable('users').where('partner_id', '=', partnerId).where('id', '=', userId);

  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),
    /** Writes an audit event in the transaction of the change it records. */
    audit: (event: AuditEvent, trx: Transaction<DB>) => auditChange(trx, event),

    userByEmail: (email: string, exec: Exec = db) => exec.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),
    userById: (partnerId: string, userId: string, exec: Exec = db) =>
      exec.selectFrom('users').selectAll().where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    // ── failure counters per e-mail: one statement each, so parallel failures count one by one ──

    /**
     * Spends one attempt before the secret is checked, in one statement, so that parallel guesses count one by one and
     * at most `max` are ever checked per lock period. An attempt beyond `max` locks the key until `lockUntil`; a lock
     * that has run out starts a new count. Returns the count after this attempt and the lock, if any.
     */
    async spendAttempt(key: string, input: { now: Date; max: number; lockUntil: Date }) {
      const { now, max, lockUntil } = input;
      const row = await sql<{ failures: number; locked_until: Date | null }>`
        insert into sign_in_throttle as t (key, failures, locked_until, updated_at)
        values (${key}, 1, null, ${now}::timestamptz)
        on conflict (key) do update set
          failures = case
            when t.locked_until > ${now}::timestamptz then t.failures
            when t.locked_until <= ${now}::timestamptz then 1
            else t.failures + 1 end,
          locked_until = case
            when t.locked_until > ${now}::timestamptz then t.locked_until
            when t.locked_until <= ${now}::timestamptz then null
            when t.failures + 1 > ${max}::int then ${lockUntil}::timestamptz
          end,
          updated_at = ${now}::timestamptz
        returning failures, locked_until`.execute(db);
      return row.rows[0]!;
    },

    /** Locks the key (the last allowed attempt failed); false when it was locked already. */
    async lock(key: string, input: { now: Date; lockUntil: Date }, exec: Exec = db) {
      const row = await exec
        .updateTable('sign_in_throttle')
        .set({ locked_until: input.lockUntil, updated_at: input.now })
        .where('key', '=', key)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', input.now)]))
        .returning('key')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Gives back an attempt that turned out right (a correct password on the way to the code). */
    refundAttempt: (key: string, now: Date) =>
      db
        .updateTable('sign_in_throttle')
        .set((eb) => ({ failures: sql<number>`greatest(${eb.ref('failures')} - 1, 0)` }))
        .where('key', '=', key)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .execute(),

    clearFailures: (key: string, exec: Exec = db) => exec.deleteFrom('sign_in_throttle').where('key', '=', key).execute(),

    // ── sign-in challenges ──

    createChallenge: (values: {
      partnerId: string;
      userId: string;
      sessionHash: string;
      challengeName: string;
      mfaSecretEnc: string | null;
      expiresAt: Date;
    }) =>
      db
        .insertInto('auth_challenges')
        .values({
          partner_id: values.partnerId,
          user_id: values.userId,
          session_hash: values.sessionHash,
          challenge_name: values.challengeName,
          mfa_secret_enc: values.mfaSecretEnc,
          expires_at: values.expiresAt,
        })
        .execute(),

    challengeBySession: (sessionHash: string) => db.selectFrom('auth_challenges').selectAll().where('session_hash', '=', sessionHash).executeTakeFirst(),

    deleteChallenge: (partnerId: string, id: string) => db.deleteFrom('auth_challenges').where('partner_id', '=', partnerId).where('id', '=', id).execute(),

    deleteUserChallenges: (exec: Exec, partnerId: string, userId: string) =>
      exec.deleteFrom('auth_challenges').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute(),

    /** Spends one code attempt on a challenge (before the code is checked); the count after it, or undefined when gone. */
    async spendCodeAttempt(partnerId: string, id: string) {
      const row = await db
        .updateTable('auth_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .returning('attempts')
        .executeTakeFirst();
      return row?.attempts;
    },

    // ── users ──

    enrolAuthenticator: (trx: Transaction<DB>, u: UserRow, values: { secretEnc: string; step: number; now: Date }) =>
      user(trx, u.partner_id, u.id)
        .set({ totp_secret_enc: values.secretEnc, totp_last_step: values.step, status: 'active', updated_at: values.now })
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** Moves the last accepted step forward; undefined when this step (or a later one) was used already. */
    claimTotpStep: (trx: Transaction<DB>, u: UserRow, step: number) =>
      user(trx, u.partner_id, u.id)
        .set({ totp_last_step: step })
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .returningAll()
        .executeTakeFirst(),

    /** The user's last completed sign-in, shown in the team list. */
    recordSignIn: (trx: Transaction<DB>, u: UserRow, now: Date) => user(trx, u.partner_id, u.id).set({ last_sign_in_at: now }).execute(),

    /**
     * An admin reset the password: the next sign-in answers PASSWORD_RESET_REQUESTED until a new password is set with
     * the e-mailed code. Only an active user; false when the user is not (any more).
     */
    async requirePasswordReset(trx: Transaction<DB>, u: { partner_id: string; id: string }, now: Date) {
      const row = await user(trx, u.partner_id, u.id)
        .set({ password_reset_requested: true, updated_at: now })
        .where('status', '=', 'active')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * A new password after a reset: the one it replaces goes into the history, which keeps the `keep` most recent
     * (with the current one, the passwords a new one must differ from).
     */
    async setResetPassword(trx: Transaction<DB>, u: UserRow, values: { hash: string; now: Date; keep: number }) {
      if (u.password_hash) {
        await trx
          .insertInto('password_history')
          .values({ partner_id: u.partner_id, user_id: u.id, password_hash: u.password_hash, created_at: values.now })
          .execute();
      }
      const kept = await trx
        .selectFrom('password_history')
        .select('id')
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .orderBy('id', 'desc')
        .limit(values.keep)
        .execute();
      await trx
        .deleteFrom('password_history')
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .$if(kept.length > 0, (q) =>
          q.where(
            'id',
            'not in',
            kept.map((k) => k.id),
          ),
        )
        .execute();
      await user(trx, u.partner_id, u.id).set({ password_hash: values.hash, password_reset_requested: false, updated_at: values.now }).execute();
    },

    /** The hashes a new password must differ from: the current one, then the earlier ones, newest first. */
    async recentPasswordHashes(u: UserRow, limit: number): Promise<string[]> {
      const earlier = await db
        .selectFrom('password_history')
        .select('password_hash')
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return [...(u.password_hash ? [u.password_hash] : []), ...earlier.map((r) => r.password_hash)].slice(0, limit);
    },

    // ── recovery codes ──

    async replaceRecoveryCodes(trx: Transaction<DB>, u: UserRow, codeHashes: string[]) {
      await trx.deleteFrom('recovery_codes').where('partner_id', '=', u.partner_id).where('user_id', '=', u.id).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codeHashes.map((code_hash) => ({ partner_id: u.partner_id, user_id: u.id, code_hash })))
        .execute();
    },

    useRecoveryCode: (trx: Transaction<DB>, u: UserRow, codeHash: string, now: Date) =>
      trx
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .returning('code_hash')
        .executeTakeFirst(),

    /** How many of a user's recovery codes are still unused. */
    recoveryCodesLeft: async (trx: Transaction<DB>, u: UserRow) => {
      const row = await trx
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

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

    // ── password-reset codes ──

    /** A user's one reset code, new (its tries back to none), in one statement: parallel requests each replace it. */
    async replaceResetCode(trx: Transaction<DB>, u: UserRow, values: { codeHash: string; expiresAt: Date }) {
      await trx
        .insertInto('password_reset_codes')
        .values({ partner_id: u.partner_id, user_id: u.id, code_hash: values.codeHash, expires_at: values.expiresAt })
        .onConflict((oc) =>
          oc.columns(['partner_id', 'user_id']).doUpdateSet((eb) => ({
            code_hash: eb.ref('excluded.code_hash'),
            expires_at: eb.ref('excluded.expires_at'),
            attempts: 0,
            used_at: null,
            created_at: eb.ref('excluded.created_at'),
          })),
        )
        .execute();
    },

    resetCode: (u: UserRow) =>
      db.selectFrom('password_reset_codes').selectAll().where('partner_id', '=', u.partner_id).where('user_id', '=', u.id).executeTakeFirst(),

    /** Spends one reset-code attempt (before the code is checked), in one statement; the count after it. */
    async spendResetAttempt(u: UserRow) {
      const row = await db
        .updateTable('password_reset_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .returning('attempts')
        .executeTakeFirst();
      return row?.attempts ?? Number.POSITIVE_INFINITY;
    },

    claimResetCode: (trx: Transaction<DB>, u: UserRow, now: Date) =>
      trx
        .updateTable('password_reset_codes')
        .set({ used_at: now })
        .where('partner_id', '=', u.partner_id)
        .where('user_id', '=', u.id)
        .where('used_at', 'is', null)
        .returning('user_id')
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

export type AuthRepository = ReturnType<typeof createAuthRepository>;
