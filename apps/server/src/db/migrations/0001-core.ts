import { sql, type Kysely } from 'kysely';

/**
 * The core tables. Every partner-owned table has partner_id leading its primary key, so that rows of one partner
 * stay together and the data can later be distributed by partner (docs/architecture.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table partners (
      id uuid primary key,
      name text not null,
      abbreviation text not null,
      product_types text[] not null check (product_types <@ array['B2B','COMMERCIAL']::text[] and cardinality(product_types) > 0),
      whitelisted boolean not null default false,
      fiat_wallets_enabled boolean not null default false,
      feature_flags jsonb not null default '{}'::jsonb,
      wallet_address text,
      withdrawal_address text,
      settlement_threshold numeric(38, 8),
      low_balance_limit numeric(38, 8) check (low_balance_limit > 0),
      payout_type text not null default 'MANUAL' check (payout_type in ('MANUAL','AUTOMATED')),
      payout_frequency text check (payout_frequency in ('Daily','Weekly','Monthly','Yearly')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index partners_abbreviation_key on partners (lower(abbreviation));

    create table users (
      partner_id uuid not null references partners (id),
      id uuid not null,
      name text not null,
      email text not null check (email = lower(email)),
      role text not null check (role in ('admin','treasury','view')),
      status text not null check (status in ('active','inactive','invited')),
      password_hash text,
      temp_password_hash text,
      password_reset_requested boolean not null default false,
      totp_secret_enc text,
      totp_last_step bigint,
      failed_logins integer not null default 0,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    -- sign-in looks a user up by e-mail before any partner is known: the one global lookup
    create unique index users_email_key on users (email);
    create unique index users_id_key on users (id);

    create table currency_accounts (
      partner_id uuid not null references partners (id),
      currency text not null check (currency ~ '^[A-Z0-9]{3,6}$'),
      created_at timestamptz not null default now(),
      primary key (partner_id, currency)
    );

    -- the balance of an account is the sum of its entries; entries are only ever added
    create table ledger_entries (
      partner_id uuid not null,
      id uuid not null default gen_random_uuid(),
      currency text not null,
      amount numeric(38, 8) not null check (amount <> 0),
      kind text not null,
      reference text not null,
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      foreign key (partner_id, currency) references currency_accounts (partner_id, currency),
      unique (partner_id, kind, reference)
    );
    create index ledger_entries_account_idx on ledger_entries (partner_id, currency);

    create table audit_events (
      partner_id uuid not null references partners (id),
      id uuid not null default gen_random_uuid(),
      actor_user_id uuid,
      actor text not null,
      action text not null,
      target text,
      details jsonb not null default '{}'::jsonb,
      ip text,
      created_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    create index audit_events_recent_idx on audit_events (partner_id, created_at desc);

    create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      to_address text not null,
      subject text not null,
      text_body text not null,
      status text not null check (status in ('queued','sent','logged','failed')),
      error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table mail_outbox, audit_events, ledger_entries, currency_accounts, users, partners`.execute(db);
}
