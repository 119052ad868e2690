import type { Kysely, Transaction } from 'kysely';
import type { DB, UserRow } from '../../db/schema.ts';
import { authBase, updateUser as user, type AuthExec } from './auth.repository.ts';

/** A column of a user's `limit` newest password-history entries, newest first. */
const newestHistory = <C extends 'id' | 'password_hash'>(exec: AuthExec, u: UserRow, column: C, limit: number) =>
  exec
    .selectFrom('password_history')
    .select(column)
    .where('partner_id', '=', u.partner_id)
    .where('user_id', '=', u.id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** The queries of password resets: the reset an admin asks for, the new password and its history, the e-mailed codes. */
export function createPasswordResetRepository(db: Kysely<DB>) {
  return {
    ...authBase(db),

    // ── a reset and the new password ──

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
      const kept = await newestHistory(trx, u, 'id', values.keep);
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
      const earlier = await newestHistory(db, u, 'password_hash', limit);
      return [...(u.password_hash ? [u.password_hash] : []), ...earlier.map((r) => r.password_hash)].slice(0, limit);
    },

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
  };
}

export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
