import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

type Who = { partnerId: string; userId: string };

/** The e-mailed codes' queries. */
export function createOtpRepository(db: Kysely<DB>) {
  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    /** The language the user saved for the portal and its e-mails (null: not chosen). */
    language: async (who: Who) =>
      (await db.selectFrom('users').select('language').where('partner_id', '=', who.partnerId).where('id', '=', who.userId).executeTakeFirst())?.language ??
      null,

    /** A new code replaces the user's previous one (its tries start again). */
    replace: (who: Who, values: { codeHash: string; expiresAt: Date; now: Date; purpose: string | null }) =>
      db
        .insertInto('email_otps')
        .values({
          partner_id: who.partnerId,
          user_id: who.userId,
          code_hash: values.codeHash,
          expires_at: values.expiresAt,
          created_at: values.now,
          purpose: values.purpose,
        })
        .onConflict((oc) =>
          oc.columns(['partner_id', 'user_id']).doUpdateSet({
            code_hash: values.codeHash,
            expires_at: values.expiresAt,
            attempts: 0,
            used_at: null,
            created_at: values.now,
            purpose: values.purpose,
          }),
        )
        .execute(),

    /** Spends one try on the user's live code, in one statement; its hash, the tries so far and its purpose, or undefined. */
    spendTry: (who: Who, now: Date) =>
      db
        .updateTable('email_otps')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('partner_id', '=', who.partnerId)
        .where('user_id', '=', who.userId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['code_hash', 'attempts', 'purpose'])
        .executeTakeFirst(),

    /** Uses the code up inside the change it authorises; undefined when another change used it first. */
    markUsed: (trx: Transaction<DB>, who: Who, values: { codeHash: string; now: Date }) =>
      trx
        .updateTable('email_otps')
        .set({ used_at: values.now })
        .where('partner_id', '=', who.partnerId)
        .where('user_id', '=', who.userId)
        .where('code_hash', '=', values.codeHash)
        .where('used_at', 'is', null)
        .returning('user_id')
        .executeTakeFirst(),
  };
}

export type OtpRepository = ReturnType<typeof createOtpRepository>;
