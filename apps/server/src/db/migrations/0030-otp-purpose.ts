import { sql, type Kysely } from 'kysely';

/**
 * What an e-mailed code confirms: its change and target (null for a code asked for without one); and a label for an
 * allowed IP address (which server it is), changed with the address's code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table email_otps add column purpose text`.execute(db);
  await sql`alter table allowed_ip_addresses add column label text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table allowed_ip_addresses drop column label`.execute(db);
  await sql`alter table email_otps drop column purpose`.execute(db);
}
