import { sql, type Kysely } from 'kysely';

/**
 * Time zones: the zone a user reads the portal in (null: UTC, the default), and the zone a report was requested in
 * (its days and its file's times; UTC for the reports made before this column existed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column time_zone text check (length(time_zone) between 1 and 64)`.execute(db);
  await sql`alter table report_jobs add column time_zone text not null default 'UTC' check (length(time_zone) between 1 and 64)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table report_jobs drop column time_zone`.execute(db);
  await sql`alter table users drop column time_zone`.execute(db);
}
