import { sql, type Kysely } from 'kysely';
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

/** Moves the check values to the keys now current (after every stored secret was sealed again with them). */
export async function replaceKeyCheck(db: Kysely<DB>, row: KeyCheckRow): Promise<void> {
  await db.updateTable('key_check').set(row).where('id', '=', 1).execute();
}

/** Every column that holds a secret sealed with ENCRYPTION_KEY, by table (each keyed by `id`). */
export const SEALED_COLUMNS = {
  users: ['totp_secret_enc'],
  auth_challenges: ['mfa_secret_enc'],
  refresh_tokens: ['successor_enc'],
  api_keys: ['secret_enc', 'previous_secret_enc'],
  webhook_endpoints: ['secret_encrypted', 'previous_secret_encrypted'],
} as const;
export type SealedTable = keyof typeof SEALED_COLUMNS;
export type SealedValue = { id: string; sealed: string };

/**
 * A batch of a column's values not sealed under `prefix` (the current key's), after `afterId` in id order.
 * Dynamic table and column names: only the ones of SEALED_COLUMNS reach here.
 */
export async function sealedOtherwise(
  db: Kysely<DB>,
  table: SealedTable,
  column: string,
  prefix: string,
  afterId: string | undefined,
  limit: number,
): Promise<SealedValue[]> {
  const { rows } = await sql<SealedValue>`
    select id::text as id, ${sql.ref(column)} as sealed from ${sql.table(table)}
    where ${sql.ref(column)} is not null and left(${sql.ref(column)}, ${prefix.length}) <> ${prefix}
      and (${afterId ?? null}::text is null or id::text > ${afterId ?? null}::text)
    order by id::text limit ${limit}`.execute(db);
  return rows;
}

/** Replaces one sealed value if it is still the one read (a change meanwhile wins); true when replaced. */
export async function resealOne(db: Kysely<DB>, table: SealedTable, column: string, value: SealedValue, next: string): Promise<boolean> {
  const result = await sql`
    update ${sql.table(table)} set ${sql.ref(column)} = ${next}
    where id::text = ${value.id} and ${sql.ref(column)} = ${value.sealed}`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}
