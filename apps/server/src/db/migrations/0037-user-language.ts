import { sql, type Kysely } from 'kysely';

/** The language a user reads the portal and its e-mails in; null until they choose (the browser's then decides). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column language text check (language in ('en', 'fr'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column language`.execute(db);
}
