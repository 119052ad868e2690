import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

type Exec = Kysely<DB> | Transaction<DB>;

/** The team module's SQL: a partner's users, their invitations, roles and removal. */
export function createTeamRepository(db: Kysely<DB>) {
  const user = (exec: Exec, partnerId: string, userId: string) => exec.updateTable('users').where('partner_id', '=', partnerId).where('id', '=', userId);

  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    partner: (partnerId: string, exec: Exec = db) => exec.selectFrom('partners').select(['id', 'name']).where('id', '=', partnerId).executeTakeFirst(),

    /**
     * The team as listed: the members (everyone but removed users) and the invitations not yet used, by name. An
     * invitation's `expires_at` says whether its link still works; a member's is null.
     */
    members: (partnerId: string) =>
      db
        .selectFrom('users')
        .select([
          'id',
          'name',
          'email',
          'role',
          'status',
          'password_reset_requested',
          'last_sign_in_at',
          'created_at',
          sql<Date | null>`null::timestamptz`.as('expires_at'),
        ])
        .where('partner_id', '=', partnerId)
        .where('status', '<>', 'deleted')
        .unionAll(
          db
            .selectFrom('invitations')
            .select([
              'id',
              'name',
              'email',
              'role',
              sql<string>`'invited'`.as('status'),
              sql<boolean>`false`.as('password_reset_requested'),
              sql<Date | null>`null::timestamptz`.as('last_sign_in_at'),
              'created_at',
              'expires_at',
            ])
            .where('partner_id', '=', partnerId),
        )
        .orderBy('name')
        .orderBy('email')
        .execute(),

    /** One user of the partner, whatever its status (another partner's user is not found). */
    member: (partnerId: string, userId: string, exec: Exec = db) =>
      exec.selectFrom('users').selectAll().where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    /** The user holding an e-mail address, of any partner: an address belongs to one user across all partners. */
    byEmail: (email: string, exec: Exec = db) =>
      exec.selectFrom('users').select(['partner_id', 'id', 'status', 'language']).where('email', '=', email).executeTakeFirst(),

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

    /** One invitation of the partner (another partner's is not found). */
    invitation: (partnerId: string, id: string, exec: Exec = db) =>
      exec.selectFrom('invitations').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst(),

    /** The partner's invitation to an address, if any. */
    invitationTo: (partnerId: string, email: string, exec: Exec = db) =>
      exec.selectFrom('invitations').select('id').where('partner_id', '=', partnerId).where('email', '=', email).executeTakeFirst(),

    /** The invitation a link's token opens (the partner named by the token), with its partner's name. */
    invitationByToken: (partnerId: string, tokenHash: string) =>
      db
        .selectFrom('invitations')
        .innerJoin('partners', 'partners.id', 'invitations.partner_id')
        .selectAll('invitations')
        .select('partners.name as partner_name')
        .where('invitations.partner_id', '=', partnerId)
        .where('invitations.token_hash', '=', tokenHash)
        .executeTakeFirst(),

    /** Locks an invitation until the transaction ends (its acceptance, renewal or withdrawal go one at a time). */
    lockInvitation: (trx: Transaction<DB>, partnerId: string, id: string) =>
      trx.selectFrom('invitations').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).forUpdate().executeTakeFirst(),

    /** A new invitation; undefined when the partner has one to this address already (the unique index decides). */
    async insertInvitation(
      trx: Transaction<DB>,
      values: { partnerId: string; id: string; name: string; email: string; role: string; tokenHash: string; expiresAt: Date; invitedBy: string | null },
    ) {
      const row = await trx
        .insertInto('invitations')
        .values({
          partner_id: values.partnerId,
          id: values.id,
          name: values.name,
          email: values.email,
          role: values.role,
          token_hash: values.tokenHash,
          expires_at: values.expiresAt,
          invited_by: values.invitedBy,
        })
        .onConflict((oc) => oc.columns(['partner_id', 'email']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** A new link for an invitation: the earlier one stops working. False when the invitation is gone. */
    async renewInvitation(trx: Transaction<DB>, partnerId: string, id: string, values: { tokenHash: string; expiresAt: Date; now: Date }) {
      const row = await trx
        .updateTable('invitations')
        .set({ token_hash: values.tokenHash, expires_at: values.expiresAt, updated_at: values.now })
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    setInvitationRole: (trx: Transaction<DB>, partnerId: string, id: string, role: string, now: Date) =>
      trx.updateTable('invitations').set({ role, updated_at: now }).where('partner_id', '=', partnerId).where('id', '=', id).execute(),

    deleteInvitation: (trx: Transaction<DB>, partnerId: string, id: string) =>
      trx.deleteFrom('invitations').where('partner_id', '=', partnerId).where('id', '=', id).execute(),

    /** The member an accepted invitation makes: active, with its password, and no authenticator yet. */
    async insertMember(trx: Transaction<DB>, values: { partnerId: string; id: string; name: string; email: string; role: string; passwordHash: string }) {
      const row = await trx
        .insertInto('users')
        .values({
          partner_id: values.partnerId,
          id: values.id,
          name: values.name,
          email: values.email,
          role: values.role,
          status: 'active',
          password_hash: values.passwordHash,
          totp_secret_enc: null,
          totp_last_step: null,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** Brings a removed user of the same partner back through an accepted invitation: a fresh start. */
    async reviveMember(trx: Transaction<DB>, partnerId: string, userId: string, values: { name: string; role: string; passwordHash: string; now: Date }) {
      await trx.deleteFrom('recovery_codes').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
      const row = await user(trx, partnerId, userId)
        .set({
          name: values.name,
          role: values.role,
          status: 'active',
          password_hash: values.passwordHash,
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

    preferences: (partnerId: string, userId: string) =>
      db.selectFrom('users').select(['time_zone', 'language', 'start_screen']).where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    setPreferences: (
      trx: Transaction<DB>,
      partnerId: string,
      userId: string,
      prefs: { time_zone?: string | null; language?: string | null; start_screen?: string | null },
      now: Date,
    ) =>
      user(trx, partnerId, userId)
        .set({ ...prefs, updated_at: now })
        .returning('id')
        .executeTakeFirst(),

    setRole: (trx: Transaction<DB>, partnerId: string, userId: string, role: string, now: Date) =>
      user(trx, partnerId, userId).set({ role, updated_at: now }).execute(),

    /**
     * Removes a user: status deleted, every secret dropped (password and the earlier ones, authenticator, recovery and reset codes, open sign-in challenges). The row stays for the audit trail.
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
