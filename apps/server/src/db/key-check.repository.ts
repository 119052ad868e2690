import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

export type KeyCheckRow = { jwt_secret_check: string; encryption_key_check: string };

/** The check values the database was created with, if written yet. */
export async function readKeyCheck(db: Kysely<DB>): Promise<KeyCheckRow | undefined> {
  return db.selectFrom('key_check').select(['jwt_secret_check', 'encryption_key_check']).where('id', '=', 1).executeTakeFirst();
}

/** Writes the check values unless another process did first; the caller reads the row back and compares. */
export async function insertKeyCheck(db: Kysely<DB>, row: KeyCheckRow): Promise<void> {
  await db
    .insertInto('key_check')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** One secret stored encrypted with ENCRYPTION_KEY (an authenticator secret), for a database older than the check. */
export async function anyEncryptedSecret(db: Kysely<DB>): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('totp_secret_enc').where('totp_secret_enc', 'is not', null).limit(1).executeTakeFirst();
  return row?.totp_secret_enc ?? undefined;
}
