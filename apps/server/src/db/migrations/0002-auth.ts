import { sql, type Kysely } from 'kysely';

/** Sign-in challenges, refresh-token families, recovery codes and password-reset codes. Secrets are stored hashed. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table auth_challenges (
      partner_id uuid not null references partners (id),
      id uuid not null default gen_random_uuid(),
      user_id uuid not null,
      session_hash text not null unique,
      challenge_name text not null,
      mfa_secret_enc text,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );

    create table refresh_tokens (
      partner_id uuid not null references partners (id),
      id uuid not null,
      user_id uuid not null,
      family_id uuid not null,
      token_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );
    create unique index refresh_tokens_id_key on refresh_tokens (id);
    create index refresh_tokens_family_idx on refresh_tokens (partner_id, family_id);

    create table recovery_codes (
      partner_id uuid not null,
      user_id uuid not null,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (partner_id, user_id, code_hash),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );

    create table password_reset_codes (
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
  await sql`drop table password_reset_codes, recovery_codes, refresh_tokens, auth_challenges`.execute(db);
}
