import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { PARTNER_MESSAGES } from '@portal/contract/partner';
import type { DB } from '../../db/schema.ts';
import { partnerRateId } from '../../db/reference/markets.ts';
import { notFound } from '../../lib/errors.ts';

/**
 * A partner's test side (migration 0044): a partner of its own, so that every wall between partners is also the wall
 * between a partner's live and test data. The partners module's port for the modules that make test data reachable
 * (an API key made for test, the portal's test view).
 */
export type TestPartners = {
  /**
   * The id of the partner's test partner, made on first need: its currency accounts (at zero), local wallets and
   * enabled countries copied from the live partner as they are now. The id itself when it is a test partner.
   */
  testPartnerOf(livePartnerId: string): Promise<string>;
};

export function createTestPartners(db: Kysely<DB>): TestPartners {
  const twinOf = (livePartnerId: string) => db.selectFrom('partners').select('id').where('live_partner_id', '=', livePartnerId).executeTakeFirst();

  return {
    async testPartnerOf(livePartnerId) {
      const found = await twinOf(livePartnerId);
      if (found) return found.id;
      return db.transaction().execute(async (trx) => {
        // the live partner's row lock: two first uses make one twin
        const live = await trx.selectFrom('partners').selectAll().where('id', '=', livePartnerId).forUpdate().executeTakeFirst();
        if (!live) throw notFound(PARTNER_MESSAGES.noSuchPartner);
        if (live.live_partner_id !== null) return live.id;
        const made = await trx.selectFrom('partners').select('id').where('live_partner_id', '=', livePartnerId).executeTakeFirst();
        if (made) return made.id;
        const id = crypto.randomUUID();
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
        const accounts = await trx.selectFrom('currency_accounts').select('currency').where('partner_id', '=', live.id).execute();
        if (accounts.length)
          await trx
            .insertInto('currency_accounts')
            .values(accounts.map((a) => ({ partner_id: id, currency: a.currency })))
            .execute();
        const wallets = await trx
          .selectFrom('fiat_wallets')
          .select(['currency', 'country', 'payment_enabled', 'collection_enabled'])
          .where('partner_id', '=', live.id)
          .execute();
        if (wallets.length)
          await trx
            .insertInto('fiat_wallets')
            .values(wallets.map((w) => ({ ...w, partner_id: id })))
            .execute();
        const rates = await trx
          .selectFrom('partner_rates')
          .select('platform_rate_id')
          .where('partner_id', '=', live.id)
          .where('status', '=', 'enabled')
          .execute();
        if (rates.length)
          await trx
            .insertInto('partner_rates')
            .values(rates.map((r) => ({ partner_id: id, id: partnerRateId(id, r.platform_rate_id), platform_rate_id: r.platform_rate_id, status: 'enabled' })))
            .execute();
        return id;
      });
    },
  };
}
