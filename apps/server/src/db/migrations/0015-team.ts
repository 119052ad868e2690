import { sql, type Kysely } from 'kysely';

/**
 * The team: a removed user is kept with status deleted (its audit trail and e-mail stay; it is not listed and cannot
 * sign in), and each user's last completed sign-in is kept for the team list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users drop constraint users_status_check;
    alter table users add constraint users_status_check check (status in ('active','inactive','invited','deleted'));
    alter table users add column last_sign_in_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users drop column last_sign_in_at;
    update users set status = 'inactive' where status = 'deleted';
    alter table users drop constraint users_status_check;
    alter table users add constraint users_status_check check (status in ('active','inactive','invited'));
  `.execute(db);
}
