import { sql, type Kysely } from 'kysely';

/**
 * One row written on the first start: a check value of each key the database was created with
 * (HMAC-SHA256(key, 'partner-dashboard key check'), never the keys), so that a start with other keys is refused
 * before it turns every stored secret unreadable (lib/key-check.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table key_check (
      id smallint primary key default 1 check (id = 1),
      jwt_secret_check text not null,
      encryption_key_check text not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table key_check`.execute(db);
}
