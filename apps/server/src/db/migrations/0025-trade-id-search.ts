import { sql, type Kysely } from 'kysely';

/**
 * Trades are searched by the trade id the table shows (`TRD-5F41110478`, or its first characters). The index keeps a
 * partner's trade ids in byte order (text_pattern_ops), so a prefix is a range scan whatever the database's collation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index trades_trade_id_idx on trades (partner_id, trade_id text_pattern_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trades_trade_id_idx`.execute(db);
}
