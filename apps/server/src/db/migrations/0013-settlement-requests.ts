import { sql, type Kysely } from 'kysely';

/**
 * Withdrawal requests: one per (partner, sequenceId), so that a request sent again finds the first one and books
 * nothing. The settlement itself is a row of `settlements` (what the Settlements tab shows), its status the truth.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table settlement_requests (
      partner_id uuid not null references partners (id),
      sequence_id text not null,
      settlement_id uuid not null,
      -- sha256 of the request's fields: the same sequenceId with another body is refused
      fingerprint text not null,
      wallet_id uuid not null,
      requested_by uuid not null,
      amount numeric(38, 8) not null check (amount > 0),
      currency text not null,
      fee_amount numeric(38, 8) not null,
      wallet_tag text,
      travel_rule_name text,
      travel_rule_registration_number text,
      failure_reason text,
      created_at timestamptz not null default now(),
      primary key (partner_id, sequence_id)
    );
    create unique index settlement_requests_settlement_key on settlement_requests (partner_id, settlement_id);
    create index settlement_requests_recent_idx on settlement_requests (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table settlement_requests`.execute(db);
}
