import { sql, type Kysely } from 'kysely';

/** Payout schedules and deposit addresses. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payout_configs (
      partner_id uuid primary key references partners (id),
      config jsonb not null,
      updated_by uuid,
      updated_at timestamptz not null default now()
    );

    create table deposit_addresses (
      partner_id uuid not null references partners (id),
      id uuid not null default gen_random_uuid(),
      currency_network text not null,
      cryptocurrency text not null,
      network text not null,
      address text not null,
      tag text,
      status text not null default 'active' check (status in ('active','disabled')),
      created_at timestamptz not null default now(),
      primary key (partner_id, id),
      unique (partner_id, currency_network)
    );
    -- an address belongs to one partner only: deposits to it are credited to that partner
    create unique index deposit_addresses_address_key on deposit_addresses (network, address, coalesce(tag, ''));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table deposit_addresses, payout_configs`.execute(db);
}
