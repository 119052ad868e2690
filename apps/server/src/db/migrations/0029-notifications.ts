import { sql, type Kysely } from 'kysely';

/**
 * Notifications: one row per recipient, written in the transaction of the change they tell; the e-mail choices per
 * user and topic (a row only where the user chose; no row means e-mail on); the low balance alert's state per account
 * (so each crossing is told once); and mails a relay delivers after the change commits (`deferred`), retried with
 * backoff (`attempts`, `next_attempt_at`), claimed by one instance at a time (`sending`, `claimed_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      partner_id uuid not null references partners (id),
      id uuid not null default gen_random_uuid(),
      user_id uuid not null,
      topic text not null,
      title text not null,
      body text not null,
      link text not null,
      created_at timestamptz not null default now(),
      read_at timestamptz,
      primary key (partner_id, id),
      foreign key (partner_id, user_id) references users (partner_id, id)
    )
  `.execute(db);
  await sql`create index notifications_by_user on notifications (partner_id, user_id, created_at desc, id desc)`.execute(db);
  await sql`create index notifications_unread on notifications (partner_id, user_id) where read_at is null`.execute(db);
  await sql`
    create table notification_preferences (
      partner_id uuid not null,
      user_id uuid not null,
      topic text not null,
      email boolean not null,
      updated_at timestamptz not null default now(),
      primary key (partner_id, user_id, topic),
      foreign key (partner_id, user_id) references users (partner_id, id)
    )
  `.execute(db);
  await sql`
    create table low_balance_alerts (
      partner_id uuid not null references partners (id),
      currency text not null,
      state text not null check (state in ('ok', 'approaching', 'below')),
      changed_at timestamptz not null default now(),
      primary key (partner_id, currency)
    )
  `.execute(db);
  await sql`alter table mail_outbox drop constraint mail_outbox_status_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_status_check check (status in ('queued', 'sending', 'sent', 'logged', 'failed'))`.execute(db);
  await sql`
    alter table mail_outbox
      add column deferred boolean not null default false,
      add column attempts integer not null default 0,
      add column next_attempt_at timestamptz,
      add column claimed_at timestamptz
  `.execute(db);
  await sql`create index mail_outbox_due on mail_outbox (next_attempt_at) where deferred and status in ('queued', 'sending')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index mail_outbox_due`.execute(db);
  await sql`alter table mail_outbox drop column deferred, drop column attempts, drop column next_attempt_at, drop column claimed_at`.execute(db);
  await sql`alter table mail_outbox drop constraint mail_outbox_status_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_status_check check (status in ('queued', 'sent', 'logged', 'failed'))`.execute(db);
  await sql`drop table low_balance_alerts, notification_preferences, notifications`.execute(db);
}
