import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, UserRow } from '../../db/schema.ts';
import { authBase, updateUser as user, type AuthExec as Exec } from './auth.repository.ts';

/** The queries of sign-in: failure counters, challenges, the authenticator and recovery codes. */
export function createSignInRepository(db: Kysely<DB>) {
  return {
    ...authBase(db),

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

    // ── the authenticator and the last sign-in ──

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
  };
}

export type SignInRepository = ReturnType<typeof createSignInRepository>;
