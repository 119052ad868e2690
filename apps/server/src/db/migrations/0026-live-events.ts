import { sql, type Kysely } from 'kysely';

/**
 * The live event stream's log: every change the stream announces is also written here, in the change's
 * transaction, so that a stream that reconnects (to this instance or another) with `Last-Event-ID` is sent what it
 * missed. Ids grow with each event; they are handed out before commit, so two transactions may commit out of id
 * order, which the replay allows for (see lib/live-bus.ts). Rows are kept a day (the cleanup job).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table live_events (
      partner_id uuid not null,
      id bigint generated always as identity,
      payload jsonb not null,
      created_at timestamptz not null default clock_timestamp(),
      primary key (partner_id, id)
    )
  `.execute(db);
  await sql`create index live_events_created_at_idx on live_events (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table live_events`.execute(db);
}
