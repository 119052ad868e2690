import { sql, type Kysely } from 'kysely';

/**
 * A partner's allowed IP addresses: when the list is not empty, API-key calls from any other address are refused.
 * Addresses and CIDR ranges are stored in their canonical text (packages/contract/src/ip-address.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table allowed_ip_addresses (
      partner_id uuid not null references partners (id),
      ip_address text not null,
      created_by uuid,
      created_by_email text,
      created_at timestamptz not null default now(),
      primary key (partner_id, ip_address)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table allowed_ip_addresses`.execute(db);
}
