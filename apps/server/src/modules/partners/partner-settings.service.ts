import type { Kysely } from 'kysely';
import { splitCurrencyNetwork, type CurrencyNetworkId } from '@portal/contract/domain';
import type { DepositAddress } from '@portal/contract/partner';
import {
  LOW_BALANCE_MESSAGE,
  MANUAL_PAYOUT,
  PayoutConfig,
  nextPayoutDate,
  normalisePayoutConfig,
  payoutConfigProblem,
} from '@portal/contract/payout';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { generateAddress } from '../../lib/deposit-addresses.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { requireRole, type Auth } from '../../plugins/auth.ts';

const DEFAULT_NETWORK: CurrencyNetworkId = 'usdt-trc20';

type AddressRow = { id: string; currency_network: string; cryptocurrency: string; network: string; address: string; tag: string | null; status: string };
const toAddress = (r: AddressRow): DepositAddress => ({
  id: r.id,
  currencyNetwork: r.currency_network,
  cryptocurrency: r.cryptocurrency,
  network: r.network,
  address: r.address,
  tag: r.tag,
  status: r.status as DepositAddress['status'],
});

/** Creates a deposit address for the partner and currency network; an existing one is kept. */
export async function assignDepositAddress(db: Kysely<DB>, partnerId: string, currencyNetwork: CurrencyNetworkId) {
  const { coin, network } = splitCurrencyNetwork(currencyNetwork);
  const { address, tag } = generateAddress(network);
  await db
    .insertInto('deposit_addresses')
    .values({ partner_id: partnerId, currency_network: currencyNetwork, cryptocurrency: coin, network, address, tag })
    .onConflict((oc) => oc.columns(['partner_id', 'currency_network']).doNothing())
    .execute();
}

/** Low-balance limit, payout schedule and deposit addresses of the caller's partner (portal-core §4, §7). */
export function createPartnerSettingsService(deps: { db: Kysely<DB>; now: () => number }) {
  const { db } = deps;

  async function readPayout(partnerId: string): Promise<PayoutConfig> {
    const row = await db.selectFrom('payout_configs').select('config').where('partner_id', '=', partnerId).executeTakeFirst();
    const parsed = PayoutConfig.safeParse(row?.config);
    return parsed.success ? normalisePayoutConfig(parsed.data) : { ...MANUAL_PAYOUT };
  }

  const withNext = (config: PayoutConfig) => ({ config, nextPayoutDate: nextPayoutDate(config, new Date(deps.now())) });

  async function addresses(partnerId: string) {
    const rows = () => db.selectFrom('deposit_addresses').selectAll().where('partner_id', '=', partnerId).orderBy('created_at').orderBy('currency_network').execute();
    let found = await rows();
    if (found.length === 0) {
      // a partner without any address is given the default USDT on TRC20 one, active (portal-core §4)
      await assignDepositAddress(db, partnerId, DEFAULT_NETWORK);
      found = await rows();
    }
    return found.map(toAddress);
  }

  return {
    async setLowBalanceLimit(auth: Auth, value: string | number | null | undefined) {
      requireRole(auth, 'admin');
      const text = value === null || value === undefined ? '' : String(value).trim();
      if (!/^\d{1,20}(\.\d{1,8})?$/.test(text) || Number(text) <= 0) throw badRequest(LOW_BALANCE_MESSAGE);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('partners').set({ low_balance_limit: text, updated_at: new Date(deps.now()) }).where('id', '=', auth.partnerId).execute();
        await audit(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'partner.low_balance_limit_changed', details: { lowBalanceLimit: text } });
      });
      return { lowBalanceLimit: text };
    },

    async payoutConfig(partnerId: string) {
      return withNext(await readPayout(partnerId));
    },

    async savePayoutConfig(auth: Auth, input: PayoutConfig) {
      requireRole(auth, 'admin');
      const problem = payoutConfigProblem(input);
      if (problem) throw badRequest(problem, 'ValidationFailed');
      const config = normalisePayoutConfig(input);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('payout_configs')
          .values({ partner_id: auth.partnerId, config: JSON.stringify(config), updated_by: auth.userId })
          .onConflict((oc) => oc.column('partner_id').doUpdateSet({ config: JSON.stringify(config), updated_by: auth.userId, updated_at: new Date(deps.now()) }))
          .execute();
        await trx
          .updateTable('partners')
          .set({ payout_type: config.type, payout_frequency: config.frequency, updated_at: new Date(deps.now()) })
          .where('id', '=', auth.partnerId)
          .execute();
        await audit(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'partner.payout_config_changed', details: config });
      });
      return withNext(config);
    },

    addresses,

    async address(partnerId: string, currencyNetwork: CurrencyNetworkId) {
      const all = await addresses(partnerId);
      const found = all.find((a) => a.currencyNetwork === currencyNetwork);
      if (!found) throw notFound('Address not found');
      return found;
    },
  };
}
