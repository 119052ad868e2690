import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The cleanup job's statements on the sign-in tables (the outbox and report jobs have their own repositories). */

type Executor = Kysely<DB> | Transaction<DB>;

/** Expired refresh tokens: refused whatever else is true of them (the session they belong to stays). */
export async function deleteExpiredRefreshTokens(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('refresh_tokens').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredChallenges(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('auth_challenges').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Password-reset codes that were used or have expired. */
export async function deleteSpentResetCodes(db: Executor, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('password_reset_codes')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions that ended (expired or revoked) before `before`; their refresh tokens go with them (foreign key). */
export async function deleteEndedSessions(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('auth_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sign-in failure counters untouched since `before` and not locking now: they would start again at one anyway. */
export async function deleteStaleSignInCounters(db: Executor, before: Date, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('sign_in_throttle')
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** E-mailed codes that were used or have expired. */
export async function deleteSpentEmailCodes(db: Executor, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('email_otps')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
