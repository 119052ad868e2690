/* eslint-disable @typescript-eslint/no-explicit-any -- a migration works on the schema of its time, not the typed one */
import { sql, type Kysely } from 'kysely';
import { referenceRows } from '../reference/markets.ts';

/** A PostgreSQL array literal of plain words (ids, ramp types), the same on both database kinds. */
const arrayLiteral = (items: string[]) => `{${items.join(',')}}`;

/**
 * The reference data of db/reference/markets.ts: platform rates, channels and payment networks of the African
 * markets served. Rows that exist (same name-based id) are left as they are; each channel's USD fee is its local
 * fee at its market's buy rate, rounded to the cent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = db as Kysely<any>;
  const { platformRates, channels, networks } = referenceRows();
  await d
    .insertInto('platform_rates')
    .values(platformRates)
    .onConflict((oc) => oc.doNothing())
    .execute();
  await d
    .insertInto('channels')
    .values(channels.map((c) => ({ ...c, fee_usd: '0' })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await sql`
    update channels c set fee_usd = round(c.fee_local / r.buy, 2)
    from platform_rates r
    where r.locale = c.country and r.code = c.currency and c.fee_usd = 0 and c.fee_local > 0
  `.execute(db);
  await d
    .insertInto('payment_networks')
    .values(
      networks.map((n) => ({
        ...n,
        channel_ids: sql`${arrayLiteral(n.channel_ids)}::uuid[]`,
        temp_disabled_for: sql`${arrayLiteral(n.temp_disabled_for)}::text[]`,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from payment_networks; delete from channels; delete from partner_rates; delete from platform_rates;`.execute(db);
}
