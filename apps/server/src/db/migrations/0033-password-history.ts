import { sql, type Kysely } from 'kysely';

/**
 * The hashes of a user's earlier passwords (the current one is `users.password_hash`): a new one must differ. `id`
 * orders them as they were replaced (several may share a time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table password_history (
      partner_id uuid not null,
      user_id uuid not null,
      id bigint generated always as identity,
      password_hash text not null,
      created_at timestamptz not null default now(),
      primary key (partner_id, user_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table password_history`.execute(db);
}
