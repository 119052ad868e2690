import { sql, type Kysely } from 'kysely';

/** E-mailed one-time codes: one live code per user, its hash only, spent tries counted in the row. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_otps (
      partner_id uuid not null,
      user_id uuid not null,
      code_hash text not null,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (partner_id, user_id),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table email_otps`.execute(db);
}
