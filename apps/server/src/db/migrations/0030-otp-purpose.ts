import { sql, type Kysely } from 'kysely';

/** What an e-mailed code confirms: its change and target (null for a code asked for without one). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table email_otps add column purpose text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table email_otps drop column purpose`.execute(db);
}
