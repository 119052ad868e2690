import { sql, type Kysely } from 'kysely';

/**
 * Fiat wallets: a partner's local-currency wallets with their payment and collection switches. The balance is the
 * ledger of the wallet's currency account (the foreign key keeps one there). The default USD/US wallet is not
 * stored: the service puts it first with id 1, so stored ids start at 2 and one currency has one wallet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table fiat_wallets (
      partner_id uuid not null,
      id bigint generated always as identity (start with 2),
      currency text not null check (currency ~ '^[A-Z]{3}$' and currency <> 'USD'),
      country text not null check (country ~ '^[A-Z]{2}$'),
      payment_enabled boolean not null default true,
      collection_enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id),
      unique (partner_id, currency),
      foreign key (partner_id, currency) references currency_accounts (partner_id, currency)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table fiat_wallets`.execute(db);
}
