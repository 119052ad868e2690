import { sql } from 'kysely';
import type { Network } from '@portal/contract/domain';
import type { DepositAddressesTable } from '../../db/schema.ts';
import type { Executor } from './partners.repository.ts';

/** SQL of deposit addresses: the partners' addresses, the operator keys' derivation counters, the imported pool. */

export type AddressSource = 'demo' | 'xpub' | 'pool';

export type NewAddress = {
  partnerId: string;
  currencyNetwork: string;
  cryptocurrency: string;
  network: Network;
  address: string;
  tag: string | null;
  source: AddressSource;
  derivationKey?: string | null;
  derivationIndex?: number | null;
};

const ADDRESS_COLUMNS = ['id', 'currency_network', 'cryptocurrency', 'network', 'address', 'tag', 'status', 'source', 'derivation_index'] as const;

/** The partner's addresses, oldest first; without demo ones unless asked. */
export function listAddresses(db: Executor, partnerId: string, options: { includeDemo: boolean }) {
  return db
    .selectFrom('deposit_addresses')
    .select(ADDRESS_COLUMNS)
    .where('partner_id', '=', partnerId)
    .$if(!options.includeDemo, (q) => q.where('source', '<>', 'demo'))
    .orderBy('created_at')
    .orderBy('currency_network')
    .execute();
}
export type AddressRow = Awaited<ReturnType<typeof listAddresses>>[number];

export function findAddress(db: Executor, partnerId: string, currencyNetwork: string, options: { includeDemo: boolean }) {
  return db
    .selectFrom('deposit_addresses')
    .select(ADDRESS_COLUMNS)
    .where('partner_id', '=', partnerId)
    .where('currency_network', '=', currencyNetwork)
    .$if(!options.includeDemo, (q) => q.where('source', '<>', 'demo'))
    .executeTakeFirst();
}

/**
 * Serialises the assignments of one partner's address for one currency network until the transaction ends, so
 * that a second request waits, then finds the first one's address instead of taking another from a source.
 */
export async function lockAssignment(db: Executor, partnerId: string, currencyNetwork: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`deposit-address:${partnerId}:${currencyNetwork}`}, 0))`.execute(db);
}

/** Inserts the address unless the partner has one for the currency network already (then undefined). */
export function insertAddress(db: Executor, a: NewAddress) {
  const values: Omit<DepositAddressesTable, 'id' | 'status' | 'created_at'> = {
    partner_id: a.partnerId,
    currency_network: a.currencyNetwork,
    cryptocurrency: a.cryptocurrency,
    network: a.network,
    address: a.address,
    tag: a.tag,
    source: a.source,
    derivation_key: a.derivationKey ?? null,
    derivation_index: a.derivationIndex ?? null,
  };
  return db
    .insertInto('deposit_addresses')
    .values(values)
    .onConflict((oc) => oc.columns(['partner_id', 'currency_network']).doNothing())
    .returning(ADDRESS_COLUMNS)
    .executeTakeFirst();
}

/** Removes the partner's demo address of a currency network, which a real one replaces outside the demo. */
export async function deleteDemoAddress(db: Executor, partnerId: string, currencyNetwork: string) {
  const removed = await db
    .deleteFrom('deposit_addresses')
    .where('partner_id', '=', partnerId)
    .where('currency_network', '=', currencyNetwork)
    .where('source', '=', 'demo')
    .returning(['address', 'tag'])
    .executeTakeFirst();
  return removed;
}

/**
 * Takes the next index of an operator key: one statement, so that two assignments never get the same index (the
 * counter row stays locked until the caller's transaction ends; a rolled-back assignment gives its index back).
 */
export async function takeDerivationIndex(db: Executor, derivationKey: string): Promise<number> {
  const row = await db
    .insertInto('deposit_derivation_counters')
    .values({ derivation_key: derivationKey, next_index: 1 })
    .onConflict((oc) => oc.column('derivation_key').doUpdateSet({ next_index: sql<number>`deposit_derivation_counters.next_index + 1` }))
    .returning('next_index')
    .executeTakeFirstOrThrow();
  return row.next_index - 1;
}

/** The index the next assignment from this key will take (0 for a key never used). */
export async function nextDerivationIndex(db: Executor, derivationKey: string): Promise<number> {
  const row = await db.selectFrom('deposit_derivation_counters').select('next_index').where('derivation_key', '=', derivationKey).executeTakeFirst();
  return row?.next_index ?? 0;
}

/**
 * Gives the oldest free pool address of a network to the partner. `for update skip locked`: concurrent callers
 * each take a different row, never the same one, and none waits for another.
 */
export function claimPoolAddress(db: Executor, network: Network, partnerId: string, at: Date) {
  return db
    .updateTable('deposit_address_pool')
    .set({ partner_id: partnerId, assigned_at: at })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('deposit_address_pool')
        .select('id')
        .where('network', '=', network)
        .where('assigned_at', 'is', null)
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'address', 'tag'])
    .executeTakeFirst();
}

/** Free pool addresses per network. */
export async function freePoolCounts(db: Executor): Promise<Partial<Record<Network, number>>> {
  const rows = await db
    .selectFrom('deposit_address_pool')
    .select(['network', (eb) => eb.fn.countAll<number>().as('free')])
    .where('assigned_at', 'is', null)
    .groupBy('network')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.network, Number(r.free)]));
}

/** Which of these addresses of a network are known already, in the pool or given to a partner (`address|tag`). */
export async function knownAddresses(db: Executor, network: Network, addresses: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < addresses.length; i += 1000) {
    const slice = addresses.slice(i, i + 1000);
    const rows = await db
      .selectFrom('deposit_address_pool')
      .select(['address', 'tag'])
      .where('network', '=', network)
      .where('address', 'in', slice)
      .unionAll(db.selectFrom('deposit_addresses').select(['address', 'tag']).where('network', '=', network).where('address', 'in', slice))
      .execute();
    for (const r of rows) known.add(`${r.address}|${r.tag ?? ''}`);
  }
  return known;
}

/** Adds addresses to the pool; one already there is skipped. Returns how many were added. */
export async function insertPoolAddresses(db: Executor, network: Network, entries: { address: string; tag: string | null }[]): Promise<number> {
  let added = 0;
  // in slices, so that a file of many thousand lines stays within the statement's parameter limit
  for (let i = 0; i < entries.length; i += 1000) {
    const slice = entries.slice(i, i + 1000);
    const rows = await db
      .insertInto('deposit_address_pool')
      .values(slice.map((e) => ({ network, address: e.address, tag: e.tag })))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    added += rows.length;
  }
  return added;
}
