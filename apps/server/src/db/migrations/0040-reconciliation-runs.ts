import { sql, type Kysely } from 'kysely';

/**
 * Each reconciliation's outcome, kept for a person to read: when it ran, how many accounts it checked, the accounts
 * whose kept figures differ from their entries, and the withdrawals without exactly one debit (both as found, in JSON).
 * The metrics read the latest row, which an alert watches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reconciliation_runs (
      id bigint generated always as identity primary key,
      ran_at timestamptz not null default now(),
      accounts_checked integer not null,
      differing_accounts jsonb not null,
      unmatched_withdrawals jsonb not null
    )`.execute(db);
  await sql`create index reconciliation_runs_ran_at on reconciliation_runs (ran_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table reconciliation_runs`.execute(db);
}
