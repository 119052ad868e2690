import type { Coin, Network } from '@portal/contract/domain';
import { compareDecimal, divideDecimal, normalise, subtractDecimal } from '@portal/contract/decimal';
import type { TravelRuleConfig } from '@portal/contract/settlements';

/**
 * What a withdrawal costs and sends: the coin's USD rate and the network's fee. The coins are USD stablecoins, priced
 * at par; BTC has no price source here and is not offered for withdrawals.
 */

/** USD per coin. */
const USD_RATES: Partial<Record<Coin, string>> = { USDT: '1.0000', USDC: '1.0000', PYUSD: '1.0000', CUSD: '1.0000' };

/** The network fee of one payout, in the coin sent (what the provider's sending wallet pays, passed on). */
export const NETWORK_FEES: Record<Network, string> = {
  TRC20: '1.00',
  ERC20: '4.00',
  POLYGON: '0.10',
  BASE: '0.10',
  CELO: '0.05',
  SOL: '0.05',
  XLM: '0.01',
  BTC: '0.00002',
};

export const rateOf = (coin: Coin): string | undefined => USD_RATES[coin];

export type Quote = { rate: string; cryptoAmount: string; feeAmount: string; receiveAmount: string };

/** The quote for a USD amount, or for an amount of the coin; undefined when the coin cannot be withdrawn. */
export function quote(coin: Coin, network: Network, amount: { usd: string } | { crypto: string }): Quote | undefined {
  const rate = rateOf(coin);
  if (!rate) return undefined;
  const cryptoAmount = 'usd' in amount ? divideDecimal(amount.usd, rate, 8) : normalise(amount.crypto, 8);
  const feeAmount = normalise(NETWORK_FEES[network], 8);
  const rest = subtractDecimal(cryptoAmount, feeAmount, 8);
  return { rate, cryptoAmount, feeAmount, receiveAmount: compareDecimal(rest, '0') > 0 ? rest : '0.00000000' };
}

/**
 * The travel-rule configs (portal-core §3): business customers' withdrawals of USD 1,000 or more carry the recipient's
 * name and business registration number (the FATF threshold of USD/EUR 1,000).
 */
export const TRAVEL_RULE_CONFIGS: TravelRuleConfig[] = [
  {
    id: 'travel-rule-business',
    countryCode: 'ALL',
    customerType: 'BUSINESS',
    minAmount: '1000.00',
    dataFields: ['name', 'businessRegistrationNumber'],
    status: 'ACTIVE',
  },
];
