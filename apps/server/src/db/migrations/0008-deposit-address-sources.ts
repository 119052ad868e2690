import { sql, type Kysely } from 'kysely';

/**
 * Where each deposit address comes from. Addresses made before this migration were random keys whose private half
 * was thrown away: they are marked demo, and outside the demo they are never shown again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table deposit_addresses
      add column source text not null default 'demo' check (source in ('demo', 'xpub', 'pool')),
      add column derivation_key text,
      add column derivation_index integer check (derivation_index >= 0),
      add constraint deposit_addresses_derivation_check check ((source = 'xpub') = (derivation_key is not null and derivation_index is not null));
    alter table deposit_addresses alter column source drop default;
    -- an index of an operator key is handed out once
    create unique index deposit_addresses_derivation_key on deposit_addresses (derivation_key, derivation_index) where derivation_key is not null;

    -- the next unused index of each operator key (by the hash160 of its public key); it only moves forward
    create table deposit_derivation_counters (
      derivation_key text primary key,
      next_index integer not null check (next_index >= 0)
    );

    -- addresses the operator imported (networks without an extended public key: Solana, Stellar with memo).
    -- An address given to a partner stays given, even if that partner is deleted: partner_id is a record, not a key.
    create table deposit_address_pool (
      id bigint generated always as identity primary key, -- the import order: the oldest goes first
      network text not null,
      address text not null,
      tag text,
      imported_at timestamptz not null default now(),
      partner_id uuid,
      assigned_at timestamptz,
      check ((partner_id is null) = (assigned_at is null))
    );
    create unique index deposit_address_pool_address_key on deposit_address_pool (network, address, coalesce(tag, ''));
    create index deposit_address_pool_free on deposit_address_pool (network, id) where assigned_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table deposit_address_pool, deposit_derivation_counters;
    drop index deposit_addresses_derivation_key;
    alter table deposit_addresses drop constraint deposit_addresses_derivation_check,
      drop column derivation_index, drop column derivation_key, drop column source;
  `.execute(db);
}
