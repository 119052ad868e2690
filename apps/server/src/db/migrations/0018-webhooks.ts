import { sql, type Kysely } from 'kysely';

/**
 * Signed webhooks. `webhook_events` is the outbox: an event is written in the transaction of the change it
 * announces, with one `webhook_deliveries` row per subscribed endpoint; a delivery whose `job_id` is null waits for
 * the relay to queue it (pg-boss), and each attempt is kept in `webhook_attempts`. `dedupe_key` makes announcing the
 * same change twice a no-op. Everything belongs to a partner and goes with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      partner_id uuid not null references partners (id) on delete cascade,
      id uuid not null,
      url text not null,
      description text,
      events text[] not null,
      secret_encrypted text not null,
      active boolean not null default true,
      state text not null default 'healthy' check (state in ('healthy', 'failing')),
      failing_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );

    create table webhook_events (
      partner_id uuid not null references partners (id) on delete cascade,
      id uuid not null,
      type text not null,
      data jsonb not null,
      dedupe_key text,
      created_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    create unique index webhook_events_dedupe_idx on webhook_events (partner_id, dedupe_key) where dedupe_key is not null;
    create index webhook_events_created_idx on webhook_events (created_at);

    create table webhook_deliveries (
      partner_id uuid not null,
      id uuid not null,
      event_id uuid not null,
      endpoint_id uuid not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      manual boolean not null default false,
      retry_step integer not null default 0,
      attempt_count integer not null default 0,
      next_attempt_at timestamptz,
      job_id uuid,
      note text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, event_id) references webhook_events (partner_id, id) on delete cascade,
      foreign key (partner_id, endpoint_id) references webhook_endpoints (partner_id, id) on delete cascade
    );
    create unique index webhook_deliveries_event_endpoint_idx on webhook_deliveries (partner_id, event_id, endpoint_id);
    create index webhook_deliveries_recent_idx on webhook_deliveries (partner_id, created_at desc, id desc);
    create index webhook_deliveries_endpoint_idx on webhook_deliveries (partner_id, endpoint_id, created_at desc, id desc);
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending' and job_id is null;
    create index webhook_deliveries_queued_idx on webhook_deliveries (updated_at) where status = 'pending' and job_id is not null;

    create table webhook_attempts (
      partner_id uuid not null,
      delivery_id uuid not null,
      n integer not null,
      attempted_at timestamptz not null,
      status_code integer,
      duration_ms integer not null,
      response_snippet text,
      error text,
      trigger text not null check (trigger in ('automatic', 'manual')),
      primary key (partner_id, delivery_id, n),
      foreign key (partner_id, delivery_id) references webhook_deliveries (partner_id, id) on delete cascade
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table webhook_attempts;
    drop table webhook_deliveries;
    drop table webhook_events;
    drop table webhook_endpoints;
  `.execute(db);
}
