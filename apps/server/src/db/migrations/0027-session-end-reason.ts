import { sql, type Kysely } from 'kysely';

/**
 * Why a session ended, so that a call or a refresh of it, and its open event streams, can say it in words: null while
 * the session is open (and for sessions ended before this column existed). The reasons are the contract's
 * `SessionEndReason`, less 'expired', which is read from `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table auth_sessions add column ended_reason text
      check (ended_reason in ('logout', 'refresh-reuse', 'removed', 'password-reset', 'password-changed', 'deactivated'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_sessions drop column ended_reason`.execute(db);
}
