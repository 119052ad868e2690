import { sql, type Kysely } from 'kysely';

/**
 * Settlement wallets: the partner's own addresses that withdrawals go to, with their four-eyes review and
 * screening. Rows are never deleted (deletion is a status, its reason kept), so the history stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table settlement_wallets (
      partner_id uuid not null references partners (id),
      id uuid not null,
      address text not null,
      network text not null,
      tag text,
      currencies text[] not null check (cardinality(currencies) > 0),
      status text not null check (status in ('pending_approval','pending_screening','enabled','disabled','denied','deleted')),
      travel_rule_name text,
      travel_rule_registration_number text,
      created_by uuid not null,
      created_by_name text not null,
      reviewed_by uuid,
      reviewed_by_name text,
      reviewed_at timestamptz,
      denial_reason text,
      deletion_reason text,
      deleted_by uuid,
      deleted_at timestamptz,
      screened_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (partner_id, id)
    );
    -- a partner registers an address on a network once while it lives (denied and deleted ones may come back)
    create unique index settlement_wallets_live_key on settlement_wallets (partner_id, network, address)
      where status not in ('denied','deleted');
    create index settlement_wallets_recent_idx on settlement_wallets (partner_id, created_at desc, id);

    -- which partner an address belongs to: the first to register it keeps it, so that an address never belongs to two
    -- partners (a global lookup, like the deposit address pool). The key is the address as its chain reads it: one key
    -- for an EVM account on every EVM network, and a Stellar account with its memo.
    create table wallet_address_owners (
      address_key text primary key,
      partner_id uuid not null references partners (id),
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table wallet_address_owners, settlement_wallets`.execute(db);
}
