import type { Kysely, Transaction } from 'kysely';
import type { DB, PartnerRow } from '../../db/schema.ts';
import { partnerRateId } from '../../db/reference/markets.ts';

/** The SQL of test partners (migration 0044): finding one, and making one as a copy of its live partner's set-up. */

type Executor = Kysely<DB> | Transaction<DB>;

/** The live partner's test partner, if it has one. */
export const findTestPartner = (ex: Executor, livePartnerId: string) =>
  ex.selectFrom('partners').select('id').where('live_partner_id', '=', livePartnerId).executeTakeFirst();

/** The partner's row, locked until the transaction ends (two first uses of test mode make one test partner). */
export const lockPartner = (trx: Transaction<DB>, partnerId: string) =>
  trx.selectFrom('partners').selectAll().where('id', '=', partnerId).forUpdate().executeTakeFirst();

/** A test partner of `live`: its name, kind and flags (kept so by the migration's trigger), no limit or payout settings of its own. */
export async function insertTestPartner(trx: Transaction<DB>, live: PartnerRow, id: string) {
  await trx
    .insertInto('partners')
    .values({
      id,
      live_partner_id: live.id,
      name: live.name,
      abbreviation: `${live.abbreviation}.test`,
      product_types: live.product_types,
      whitelisted: live.whitelisted,
      fiat_wallets_enabled: live.fiat_wallets_enabled,
      feature_flags: JSON.stringify(live.feature_flags),
      low_balance_limit: null,
      payout_type: 'MANUAL',
      payout_frequency: null,
      wallet_address: null,
      withdrawal_address: null,
      settlement_threshold: null,
    })
    .execute();
}

/** The live partner's local wallets (their currency accounts opened first) and enabled countries, copied to its test partner. */
export async function copyLiveSetUp(trx: Transaction<DB>, livePartnerId: string, id: string) {
  const wallets = await trx
    .selectFrom('fiat_wallets')
    .select(['currency', 'country', 'payment_enabled', 'collection_enabled'])
    .where('partner_id', '=', livePartnerId)
    .execute();
  if (wallets.length)
    await trx
      .insertInto('fiat_wallets')
      .values(wallets.map((w) => ({ ...w, partner_id: id })))
      .execute();
  const rates = await trx
    .selectFrom('partner_rates')
    .select('platform_rate_id')
    .where('partner_id', '=', livePartnerId)
    .where('status', '=', 'enabled')
    .execute();
  if (rates.length)
    await trx
      .insertInto('partner_rates')
      .values(rates.map((r) => ({ partner_id: id, id: partnerRateId(id, r.platform_rate_id), platform_rate_id: r.platform_rate_id, status: 'enabled' })))
      .execute();
}
