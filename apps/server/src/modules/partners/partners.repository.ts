import type { Kysely, Transaction } from 'kysely';
import { FEATURE_FLAGS, NO_FEATURE_FLAGS, type FeatureFlags, type ProductType } from '@portal/contract/domain';
import { partnerKind, type Partner } from '@portal/contract/partner';
import type { DB, NewPartner, PartnerRow } from '../../db/schema.ts';

/** The partners module's SQL: partners, their currency accounts and balances (users: modules/team). */

export type Executor = Kysely<DB> | Transaction<DB>;

export function toFeatureFlags(stored: Record<string, boolean>): FeatureFlags {
  const flags = { ...NO_FEATURE_FLAGS };
  for (const f of FEATURE_FLAGS) flags[f] = stored[f] === true;
  return flags;
}

export function toPartner(row: PartnerRow): Partner {
  const productTypes = row.product_types as ProductType[];
  return {
    id: row.id,
    name: row.name,
    abbreviation: row.abbreviation,
    walletAddress: row.wallet_address,
    withdrawalAddress: row.withdrawal_address,
    settlementThreshold: row.settlement_threshold,
    lowBalanceLimit: row.low_balance_limit,
    payoutType: row.payout_type as Partner['payoutType'],
    payoutFrequency: row.payout_frequency as Partner['payoutFrequency'],
    productTypes,
    fiatWalletsEnabled: row.fiat_wallets_enabled,
    whitelisted: row.whitelisted,
    ...partnerKind(productTypes, row.whitelisted),
  };
}

export function findPartner(db: Executor, partnerId: string) {
  return db.selectFrom('partners').selectAll().where('id', '=', partnerId).executeTakeFirst();
}

export function findPartnerByAbbreviation(db: Executor, abbreviation: string) {
  return db
    .selectFrom('partners')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['abbreviation']), '=', abbreviation.toLowerCase()))
    .executeTakeFirst();
}

export function insertPartner(db: Executor, values: NewPartner) {
  return db.insertInto('partners').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePartner(
  db: Executor,
  partnerId: string,
  changes: Pick<Partial<NewPartner>, 'feature_flags' | 'low_balance_limit' | 'payout_type' | 'payout_frequency'>,
  at: Date,
) {
  await db
    .updateTable('partners')
    .set({ ...changes, updated_at: at })
    .where('id', '=', partnerId)
    .execute();
}
