import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { WALLET_SLOT_STATUSES } from '@portal/contract/wallets';
import type { DB, SettlementWalletsTable } from '../../db/schema.ts';

/** The settlement wallets' SQL. */

type Executor = Kysely<DB> | Transaction<DB>;
export type WalletRow = Selectable<SettlementWalletsTable>;
export type NewWallet = Insertable<SettlementWalletsTable>;
type WalletChanges = Partial<
  Pick<SettlementWalletsTable, 'status' | 'reviewed_by' | 'reviewed_by_name' | 'denial_reason' | 'deletion_reason' | 'deleted_by'>
> & {
  reviewed_at?: Date;
  deleted_at?: Date;
  screened_at?: Date;
};

const LIVE_EXCLUDED = ['denied', 'deleted'];

/** Serialises the changes of one partner's wallets (the per-pair limit is counted under it). Held until commit. */
export async function lockPartnerWallets(trx: Transaction<DB>, partnerId: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`settlement-wallets:${partnerId}`}, 0))`.execute(trx);
}

export function listWallets(db: Executor, partnerId: string) {
  return db.selectFrom('settlement_wallets').selectAll().where('partner_id', '=', partnerId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export function findWallet(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('settlement_wallets').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

/** The partner's live wallets (neither denied nor deleted) with this address, on this network when given. */
export function liveWalletsByAddress(db: Executor, partnerId: string, address: string, network?: string) {
  let q = db
    .selectFrom('settlement_wallets')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('status', 'not in', LIVE_EXCLUDED)
    // an EVM or SegWit address may have been typed in another case than it is stored in
    .where((eb) => eb.or([eb('address', '=', address), eb(eb.fn('lower', ['address']), '=', address.toLowerCase())]));
  if (network) q = q.where('network', '=', network);
  return q.execute();
}

/** How many of the partner's wallets on the network hold a place for each coin (enabled or on the way to it). */
export async function slotsTaken(db: Executor, partnerId: string, network: string, currencies: string[], exceptId?: string) {
  const rows = await db
    .selectFrom('settlement_wallets')
    .select('currencies')
    .where('partner_id', '=', partnerId)
    .where('network', '=', network)
    .where('status', 'in', WALLET_SLOT_STATUSES as string[])
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .execute();
  return Object.fromEntries(currencies.map((c) => [c, rows.filter((r) => r.currencies.includes(c)).length])) as Record<string, number>;
}

/** Claims the address for the partner unless another partner has it: the owner afterwards. */
export async function claimAddress(trx: Transaction<DB>, addressKey: string, partnerId: string, at: Date): Promise<string> {
  await trx
    .insertInto('wallet_address_owners')
    .values({ address_key: addressKey, partner_id: partnerId, created_at: at })
    .onConflict((oc) => oc.column('address_key').doNothing())
    .execute();
  const row = await trx.selectFrom('wallet_address_owners').select('partner_id').where('address_key', '=', addressKey).executeTakeFirstOrThrow();
  return row.partner_id;
}

/** The partner an address belongs to, if any has registered it (a read, for the check before a code is sent). */
export async function addressOwner(db: Executor, addressKey: string): Promise<string | undefined> {
  return (await db.selectFrom('wallet_address_owners').select('partner_id').where('address_key', '=', addressKey).executeTakeFirst())?.partner_id;
}

export function insertWallet(trx: Transaction<DB>, wallet: NewWallet) {
  return trx.insertInto('settlement_wallets').values(wallet).returningAll().executeTakeFirstOrThrow();
}

/** Changes a wallet that is still in one of `from`; undefined when it is not (someone changed it first). */
export function updateWallet(db: Executor, partnerId: string, id: string, from: readonly string[], changes: WalletChanges, at: Date) {
  return db
    .updateTable('settlement_wallets')
    .set({ ...changes, updated_at: at })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
}
