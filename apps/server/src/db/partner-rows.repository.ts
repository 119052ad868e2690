import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** The tables whose rows each belong to one partner (a partner_id column). */
type PartnerTable = { [T in keyof DB]: DB[T] extends { partner_id: unknown } ? T : never }[keyof DB];

/** How many rows of a table a partner has (the number a limit on them is checked against). */
export async function countPartnerRows(db: Kysely<DB> | Transaction<DB>, table: PartnerTable, partnerId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
