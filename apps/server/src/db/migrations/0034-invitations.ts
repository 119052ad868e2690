import { sql, type Kysely } from 'kysely';

/**
 * Invitations kept apart from users: an invitation is a name, an address, a role and the hash of a one-time link
 * that expires. The user is made only when the link is used, so inviting an address that already has an account
 * (at another partner) looks the same to the inviter as any other invitation.
 *
 * Users still invited (a temporary password, never signed in) become expired invitations: their temporary
 * passwords stop working, and the team list offers to resend them as links. Their user rows are kept as removed,
 * so accepting the new link brings the same row back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table invitations (
      partner_id uuid not null references partners (id),
      id uuid not null,
      name text not null,
      email text not null check (email = lower(email)),
      role text not null check (role in ('admin','treasury','view')),
      token_hash text,
      expires_at timestamptz not null,
      invited_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    create unique index invitations_partner_email_key on invitations (partner_id, email);
    -- a link's token begins with its partner's id: looked up within the partner (one shard when distributed)
    create unique index invitations_token_hash_key on invitations (partner_id, token_hash);

    insert into invitations (partner_id, id, name, email, role, token_hash, expires_at, created_at)
      select partner_id, id, name, email, role, null, now(), created_at from users where status = 'invited';
    update users set status = 'deleted', updated_at = now() where status = 'invited';
    alter table users drop column temp_password_hash;
    alter table users drop constraint users_status_check;
    alter table users add constraint users_status_check check (status in ('active','inactive','deleted'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users drop constraint users_status_check;
    alter table users add constraint users_status_check check (status in ('active','inactive','invited','deleted'));
    alter table users add column temp_password_hash text;
    drop table invitations;
  `.execute(db);
}
