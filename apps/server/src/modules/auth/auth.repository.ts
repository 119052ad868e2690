import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { auditChange, type AuditEvent } from '../../lib/audit.repository.ts';

type Exec = Kysely<DB> | Transaction<DB>;
export type AuthExec = Exec;

/** An update of one user's row (the partner's, by id). */
export const updateUser = (exec: Exec, partnerId: string, userId: string) =>
  exec.updateTable('users').where('partner_id', '=', partnerId).where('id', '=', userId);

/**
 * What sign-in, sessions and password resets all read and write: a transaction, the audit event of a change, a user,
 * and the two clean-ups a new password and a sign-in share. Each has a repository of its own beside this one
 * (sign-in.repository.ts, sessions.repository.ts, password-reset.repository.ts); rules live in the services.
 */
export function authBase(db: Kysely<DB>) {
  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    /** Writes an audit event in the transaction of the change it records. */
    audit: (event: AuditEvent, trx: Transaction<DB>) => auditChange(trx, event),

    userByEmail: (email: string, exec: Exec = db) => exec.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),

    userById: (partnerId: string, userId: string, exec: Exec = db) =>
      exec.selectFrom('users').selectAll().where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst(),

    clearFailures: (key: string, exec: Exec = db) => exec.deleteFrom('sign_in_throttle').where('key', '=', key).execute(),

    deleteUserChallenges: (exec: Exec, partnerId: string, userId: string) =>
      exec.deleteFrom('auth_challenges').where('partner_id', '=', partnerId).where('user_id', '=', userId).execute(),
  };
}
