import { sql, type Kysely } from 'kysely';

/**
 * Sessions that access tokens are tied to (so that a logout ends them at once), sign-in failure counters kept per
 * e-mail whether or not the e-mail has a user (so that a locked account and an unknown e-mail look alike), shared
 * rate-limit counters (so that several server instances on one database count together), and the successor of a
 * rotated refresh token kept encrypted for a few seconds (two tabs refreshing at once get the same new token).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table auth_sessions (
      partner_id uuid not null references partners (id),
      id uuid not null,
      user_id uuid not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id) on delete cascade
    );
    create unique index auth_sessions_id_key on auth_sessions (id);
    create index auth_sessions_user_idx on auth_sessions (partner_id, user_id) where revoked_at is null;

    insert into auth_sessions (partner_id, id, user_id, expires_at, revoked_at)
      select partner_id, family_id, user_id, max(expires_at),
             case when bool_and(revoked_at is not null) then max(revoked_at) end
      from refresh_tokens group by partner_id, family_id, user_id;

    alter table refresh_tokens add column successor_enc text;
    alter table refresh_tokens
      add foreign key (partner_id, family_id) references auth_sessions (partner_id, id) on delete cascade;

    create table sign_in_throttle (
      key text primary key,
      failures integer not null default 0,
      locked_until timestamptz,
      updated_at timestamptz not null default now()
    );

    create table rate_limit_counters (
      key text primary key,
      hits integer not null,
      window_ends timestamptz not null
    );
    create index rate_limit_counters_window_idx on rate_limit_counters (window_ends);

    alter table users drop column failed_logins, drop column locked_until;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users add column failed_logins integer not null default 0, add column locked_until timestamptz;
    drop table rate_limit_counters, sign_in_throttle;
    alter table refresh_tokens drop constraint refresh_tokens_partner_id_family_id_fkey, drop column successor_enc;
    drop table auth_sessions;
  `.execute(db);
}
