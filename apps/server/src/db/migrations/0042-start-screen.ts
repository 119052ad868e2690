import { sql, type Kysely } from 'kysely';

/** The screen the portal opens on after sign-in, each user's choice: null is the transaction tables (the spec's). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column start_screen text check (start_screen in ('overview'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column start_screen`.execute(db);
}
