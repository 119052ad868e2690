import { sql, type Kysely } from 'kysely';

/**
 * A notification's title and text in the languages other than English ({"fr": {"title", "body"}}), written with it
 * so that the bell shows each reader their own; the English stays in title and body. Null for the rows written
 * before, which read in English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications add column texts jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications drop column texts`.execute(db);
}
