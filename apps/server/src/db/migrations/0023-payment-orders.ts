import { sql, type Kysely } from 'kysely';

/**
 * Collections and disbursements a partner initiates (`payment_orders`), with their timeline (`payment_order_events`,
 * one row per state reached). The transaction tables (`collections`, `payments`, `initiated_payments`) carry a row of
 * the same id that every state change updates in its transaction, so the searches and exports show them as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_orders (
      partner_id uuid not null references partners (id),
      id uuid not null,
      kind text not null check (kind in ('collection','disbursement')),
      status text not null,
      outcome text not null,
      sequence_id text not null,
      fingerprint text not null,
      country text not null,
      currency text not null,
      amount numeric(38, 8) not null check (amount > 0),
      rate numeric(38, 12) not null check (rate > 0),
      amount_usd numeric(38, 8) not null,
      fee_usd numeric(38, 8) not null check (fee_usd >= 0),
      channel_id uuid not null,
      channel_type text not null,
      payment_method text not null,
      network_id uuid,
      network_name text,
      account_number text,
      account_type text,
      counterparty_name text not null,
      reference text not null,
      source text not null,
      instructions jsonb,
      failure_reason text,
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (partner_id, id),
      unique (partner_id, kind, sequence_id)
    );
    create index payment_orders_unfinished_idx on payment_orders (updated_at)
      where status not in ('complete','failed','expired','refunded','denied','cancelled','refund_failed');

    create table payment_order_events (
      partner_id uuid not null,
      order_id uuid not null,
      status text not null,
      at timestamptz not null,
      -- the order in which the states were reached (several may share a timestamp)
      seq bigint generated always as identity,
      primary key (partner_id, order_id, status),
      foreign key (partner_id, order_id) references payment_orders (partner_id, id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_order_events, payment_orders`.execute(db);
}
