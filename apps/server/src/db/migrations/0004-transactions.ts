import { sql, type Kysely } from 'kysely';

/**
 * The transaction tables of transaction-data §3. Each keeps partner_id first in its primary key and has the index
 * the search needs: newest first within a partner, ties broken by id, so that pages never repeat or skip rows.
 * Filterable values are stored as the filters compare them: status, transaction type, payment method and request
 * source lower-case; countries and currencies upper-case codes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table collections (
      partner_id uuid not null references partners (id),
      id uuid not null,
      created_at timestamptz not null,
      status text not null,
      country text not null,
      currency text not null,
      amount numeric(38, 8) not null,
      converted_amount numeric(38, 8) not null,
      rate numeric(38, 12) not null,
      payment_method text not null,
      request_source text not null,
      fiat_wallet text,
      sequence_id text not null,
      session_id text,
      account_number text not null,
      account_type text not null,
      counterparty_name text not null,
      primary key (partner_id, id)
    );
    create index collections_recent_idx on collections (partner_id, created_at desc, id desc);
    create index collections_status_idx on collections (partner_id, status, created_at desc, id desc);

    create table payments (
      like collections including defaults including constraints,
      primary key (partner_id, id),
      foreign key (partner_id) references partners (id)
    );
    create index payments_recent_idx on payments (partner_id, created_at desc, id desc);
    create index payments_status_idx on payments (partner_id, status, created_at desc, id desc);

    create table settlements (
      partner_id uuid not null references partners (id),
      id uuid not null,
      created_at timestamptz not null,
      status text not null,
      type text not null,
      transaction_hash text,
      internal_wallet_address text not null,
      external_wallet_address text not null,
      crypto_currency text not null,
      crypto_amount numeric(38, 8) not null,
      network text not null,
      crypto_rate numeric(38, 12) not null,
      fiat_amount_usd numeric(38, 8) not null,
      wallet_balance_usd numeric(38, 8) not null,
      fiat_amount numeric(38, 8),
      fiat_rate numeric(38, 12),
      fiat_wallet text,
      sequence_id text not null,
      primary key (partner_id, id)
    );
    create index settlements_recent_idx on settlements (partner_id, created_at desc, id desc);

    create table fees (
      partner_id uuid not null references partners (id),
      id uuid not null,
      created_at timestamptz not null,
      transaction_id uuid not null,
      transaction_type text not null,
      payment_method text not null,
      amount_usd numeric(38, 8) not null,
      fiat_wallet text,
      primary key (partner_id, id)
    );
    create index fees_recent_idx on fees (partner_id, created_at desc, id desc);

    create table trades (
      partner_id uuid not null references partners (id),
      id uuid not null,
      created_at timestamptz not null,
      trade_id text not null,
      trade_locked_date timestamptz not null,
      status text not null,
      country text not null,
      fiat_currency text not null,
      crypto_currency text not null,
      network text not null,
      trade_type text not null,
      crypto_transaction_type text not null,
      effective_rate numeric(38, 12) not null,
      quoted_rate numeric(38, 12) not null,
      fee numeric(38, 8) not null,
      crypto_amount numeric(38, 8) not null,
      fiat_amount numeric(38, 8) not null,
      crypto_bought numeric(38, 8) not null,
      crypto_sold numeric(38, 8) not null,
      fiat_sold numeric(38, 8) not null,
      fiat_bought numeric(38, 8) not null,
      fiat_wallet text,
      primary key (partner_id, id)
    );
    create index trades_recent_idx on trades (partner_id, created_at desc, id desc);

    create table initiated_payments (
      partner_id uuid not null references partners (id),
      id uuid not null,
      created_at timestamptz not null,
      status text not null,
      country text not null,
      local_currency text not null,
      amount numeric(38, 8) not null,
      amount_usd numeric(38, 8) not null,
      payment_method text not null,
      recipient_name text not null,
      account_number text not null,
      reference text not null,
      fiat_wallet text,
      primary key (partner_id, id)
    );
    create index initiated_payments_recent_idx on initiated_payments (partner_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table initiated_payments, trades, fees, settlements, payments, collections`.execute(db);
}
