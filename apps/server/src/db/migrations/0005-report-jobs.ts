import { sql, type Kysely } from 'kysely';

/** Report jobs (transaction-data §3): built in the background, page by page, into a file kept for 24 hours. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table report_jobs (
      partner_id uuid not null references partners (id),
      id uuid not null,
      status text not null check (status in ('requested','in_progress','data_downloaded','complete','failed')),
      requested_by_id uuid not null,
      requested_by_email text not null,
      data_source text not null,
      start_date date not null,
      end_date date not null,
      filters jsonb not null default '{}'::jsonb,
      fiat_wallet text not null default 'all',
      total_pages integer not null default 0,
      processed_pages integer not null default 0,
      row_count integer,
      file_key text,
      error text,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    create index report_jobs_recent_idx on report_jobs (partner_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table report_jobs`.execute(db);
}
