import { sql, type Kysely } from 'kysely';

/**
 * A rolled webhook secret: the one before the last roll (encrypted like the current one) and when it stops signing.
 * Until then each delivery carries both signatures.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_endpoints add column previous_secret_encrypted text`.execute(db);
  await sql`alter table webhook_endpoints add column previous_secret_expires_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_endpoints drop column previous_secret_expires_at`.execute(db);
  await sql`alter table webhook_endpoints drop column previous_secret_encrypted`.execute(db);
}
