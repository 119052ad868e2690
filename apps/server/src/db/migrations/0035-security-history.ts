import { sql, type Kysely } from 'kysely';

/**
 * The security history and the list of a user's own sessions: an audit row keeps the browser (User-Agent) of the
 * request that wrote it (sign-ins and their failures); a session keeps the browser and address it was opened from
 * and when it was last seen (its sign-in, then each refresh of its access token); a session a user ends from another
 * one says so ('ended-remotely'). Admins filter the history by person: an index per actor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table audit_events add column user_agent text;
    create index audit_events_actor_idx on audit_events (partner_id, actor_user_id, created_at desc);

    alter table auth_sessions add column user_agent text, add column ip text, add column last_seen_at timestamptz;
    update auth_sessions set last_seen_at = created_at;
    alter table auth_sessions alter column last_seen_at set default now(), alter column last_seen_at set not null;

    alter table auth_sessions drop constraint auth_sessions_ended_reason_check;
    alter table auth_sessions add constraint auth_sessions_ended_reason_check
      check (ended_reason in ('logout', 'refresh-reuse', 'removed', 'password-reset', 'password-changed', 'deactivated', 'ended-remotely'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update auth_sessions set ended_reason = 'logout' where ended_reason = 'ended-remotely';
    alter table auth_sessions drop constraint auth_sessions_ended_reason_check;
    alter table auth_sessions add constraint auth_sessions_ended_reason_check
      check (ended_reason in ('logout', 'refresh-reuse', 'removed', 'password-reset', 'password-changed', 'deactivated'));
    alter table auth_sessions drop column user_agent, drop column ip, drop column last_seen_at;
    drop index audit_events_actor_idx;
    alter table audit_events drop column user_agent;
  `.execute(db);
}
