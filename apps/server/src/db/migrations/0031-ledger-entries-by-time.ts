import { sql, type Kysely } from 'kysely';

/** An account's ledger in time order (the Balance screen's recent movements, a statement's period) without a sort. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index ledger_entries_account_time_idx on ledger_entries (partner_id, currency, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index ledger_entries_account_time_idx`.execute(db);
}
