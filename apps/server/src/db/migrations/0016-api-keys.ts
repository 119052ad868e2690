import { sql, type Kysely } from 'kysely';

/**
 * API keys and the replies kept for Idempotency-Key. A key's secret signs each request, so the server must be able to
 * read it: it is kept encrypted with ENCRYPTION_KEY (AES-256-GCM), never in clear, and shown once. After a roll the
 * secret before it may keep working until previous_secret_expires_at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table api_keys (
      partner_id uuid not null references partners (id),
      id uuid not null default gen_random_uuid(),
      api_key text not null check (api_key ~ '^ak_[0-9a-f]{32}$'),
      public_key text not null,
      name text not null,
      permissions text[] not null check (permissions <@ array['api_read','api_write','widget']::text[] and cardinality(permissions) > 0),
      status text not null default 'active' check (status in ('active','disabled')),
      secret_enc text not null,
      secret_hint text not null,
      previous_secret_enc text,
      previous_secret_expires_at timestamptz,
      expires_at timestamptz,
      last_used_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    -- a signed call names its key before any partner is known: the one global lookup (like users' e-mail)
    create unique index api_keys_api_key_key on api_keys (api_key);
    create unique index api_keys_public_key_key on api_keys (public_key);
    create index api_keys_partner_updated_idx on api_keys (partner_id, updated_at desc);

    -- the first reply to an Idempotency-Key of a partner: claimed by one insert before the request runs
    create table idempotency_keys (
      partner_id uuid not null references partners (id),
      key text not null,
      fingerprint text not null,
      -- which request holds the claim: only it may store its reply
      claim_token uuid not null,
      status_code integer,
      response_body text,
      content_type text,
      locked_until timestamptz not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      primary key (partner_id, key)
    );
    create index idempotency_keys_expires_idx on idempotency_keys (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idempotency_keys; drop table api_keys;`.execute(db);
}
