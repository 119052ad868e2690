import { sql, type Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn credentials) and the ceremonies that make and use them. A credential id is unique across the
 * portal (the authenticator makes it at random; a second row for it would let one key sign in as two people). The
 * counter goes forward only: an authenticator that reports one lower than the last was copied, and is disabled.
 * A ceremony is the challenge the server gave the browser: used once, for a few minutes; a sign-in's belongs to no
 * one yet (the passkey says who signs in).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table passkeys (
      partner_id uuid not null,
      id uuid not null default gen_random_uuid(),
      user_id uuid not null,
      credential_id text not null unique,
      public_key bytea not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      synced boolean not null,
      name text not null,
      user_agent text,
      disabled_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );
    create index passkeys_user_idx on passkeys (partner_id, user_id);

    create table passkey_ceremonies (
      id uuid primary key default gen_random_uuid(),
      purpose text not null check (purpose in ('add', 'sign-in')),
      partner_id uuid,
      user_id uuid,
      challenge text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      check ((purpose = 'add') = (user_id is not null))
    );
    create index passkey_ceremonies_expiry_idx on passkey_ceremonies (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table passkey_ceremonies, passkeys`.execute(db);
}
