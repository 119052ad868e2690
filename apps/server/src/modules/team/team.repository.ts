import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

type Exec = Kysely<DB> | Transaction<DB>;

/** The team module's SQL: a partner's users, their invitations, roles and removal. */
export function createTeamRepository(db: Kysely<DB>) {
  const user = (exec: Exec, partnerId: string, userId: string) => exec.updateTable('users').where('partner_id', '=', partnerId).where('id', '=', userId);

  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    partner: (partnerId: string) => db.selectFrom('partners').select(['id', 'name']).where('id', '=', partnerId).executeTakeFirst(),

    /** The team as listed: everyone but removed users, by name. */
    members: (partnerId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'role', 'status', 'password_reset_requested', 'last_sign_in_at', 'created_at'])
        .where('partner_id', '=', partnerId)
        .where('status', '<>', 'deleted')
        .orderBy('name')
        .orderBy('email')
        .execute(),

    /** One user of the partner, whatever its status (another partner's user is not found). */
    member: (partnerId: string, userId: string, exec: Exec = db) =>
      exec.selectFrom('users').selectAll().where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    /** The user holding an e-mail address, of any partner: an address belongs to one user across all partners. */
    byEmail: (email: string, exec: Exec = db) => exec.selectFrom('users').select(['partner_id', 'id', 'status']).where('email', '=', email).executeTakeFirst(),

    /**
     * Locks the partner's active admins (in id order, so two changes lock in the same order) and answers their ids.
     * Every change that could remove an admin takes this lock first: a second one waits, then sees the first's result.
     */
    async lockActiveAdmins(trx: Transaction<DB>, partnerId: string) {
      const rows = await trx
        .selectFrom('users')
        .select('id')
        .where('partner_id', '=', partnerId)
        .where('role', '=', 'admin')
        .where('status', '=', 'active')
        .orderBy('id')
        .forUpdate()
        .execute();
      return rows.map((r) => r.id);
    },

    /** A new invited user; undefined when the e-mail address was taken meanwhile (the unique index decides). */
    async insertInvited(trx: Transaction<DB>, values: { partnerId: string; id: string; name: string; email: string; role: string; tempHash: string }) {
      const row = await trx
        .insertInto('users')
        .values({
          partner_id: values.partnerId,
          id: values.id,
          name: values.name,
          email: values.email,
          role: values.role,
          status: 'invited',
          password_hash: null,
          temp_password_hash: values.tempHash,
          totp_secret_enc: null,
          totp_last_step: null,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** Invites a removed user of the same partner again: a fresh start (no password, authenticator or codes). */
    async reinvite(trx: Transaction<DB>, partnerId: string, userId: string, values: { name: string; role: string; tempHash: string; now: Date }) {
      await trx.deleteFrom('recovery_codes').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      const row = await user(trx, partnerId, userId)
        .set({
          name: values.name,
          role: values.role,
          status: 'invited',
          password_hash: null,
          temp_password_hash: values.tempHash,
          password_reset_requested: false,
          totp_secret_enc: null,
          totp_last_step: null,
          last_sign_in_at: null,
          updated_at: values.now,
        })
        .where('status', '=', 'deleted')
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** A new temporary password for a user who has not accepted the invitation; the old one stops working. */
    async replaceTempPassword(trx: Transaction<DB>, partnerId: string, userId: string, tempHash: string, now: Date) {
      const row = await user(trx, partnerId, userId)
        .set({ temp_password_hash: tempHash, updated_at: now })
        .where('status', '=', 'invited')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    timeZone: (partnerId: string, userId: string) =>
      db.selectFrom('users').select('time_zone').where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    setTimeZone: (trx: Transaction<DB>, partnerId: string, userId: string, timeZone: string | null, now: Date) =>
      user(trx, partnerId, userId).set({ time_zone: timeZone, updated_at: now }).returning('id').executeTakeFirst(),

    setRole: (trx: Transaction<DB>, partnerId: string, userId: string, role: string, now: Date) =>
      user(trx, partnerId, userId).set({ role, updated_at: now }).execute(),

    /**
     * Removes a user: status deleted, every secret dropped (password and the earlier ones, temporary password,
     * authenticator, recovery and reset codes, open sign-in challenges). The row stays for the audit trail.
     */
    async markDeleted(trx: Transaction<DB>, partnerId: string, userId: string, now: Date) {
      await trx.deleteFrom('recovery_codes').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      await trx.deleteFrom('password_reset_codes').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      await trx.deleteFrom('password_history').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      await trx.deleteFrom('auth_challenges').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      await user(trx, partnerId, userId)
        .set({
          status: 'deleted',
          password_hash: null,
          temp_password_hash: null,
          password_reset_requested: false,
          totp_secret_enc: null,
          totp_last_step: null,
          updated_at: now,
        })
        .execute();
    },
  };
}

export type TeamRepository = ReturnType<typeof createTeamRepository>;
