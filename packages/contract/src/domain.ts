import { z } from 'zod';

/** Enums and constants of the product, shared by the server and the portal (spec portal-core §3, §9; transaction-data §4, §9). */

export const ROLES = ['admin', 'treasury', 'view'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** A signed-in user's status; an invited person is not a user until the invitation's link is used. */
export const USER_STATUSES = ['active', 'inactive'] as const;
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;

export const PRODUCT_TYPES = ['B2B', 'COMMERCIAL'] as const;
export const ProductType = z.enum(PRODUCT_TYPES);
export type ProductType = z.infer<typeof ProductType>;

export const FEATURE_FLAGS = [
  'walletManagementEnabled',
  'apiKeysManagementEnabled',
  'enabledCountriesEnabled',
  'whitelistedIpsEnabled',
  'channelsCoverageEnabled',
  'webhooksManagementEnabled',
  'paymentsViewEnabled',
  'reportDownloadsEnabled',
] as const;
export const FeatureFlag = z.enum(FEATURE_FLAGS);
export type FeatureFlag = z.infer<typeof FeatureFlag>;
export const FeatureFlags = z.object(Object.fromEntries(FEATURE_FLAGS.map((f) => [f, z.boolean()])) as Record<FeatureFlag, z.ZodBoolean>);
export type FeatureFlags = z.infer<typeof FeatureFlags>;
/** All flags are off by default (portal-core §6). */
export const NO_FEATURE_FLAGS: FeatureFlags = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, false])) as FeatureFlags;
export const ALL_FEATURE_FLAGS: FeatureFlags = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as FeatureFlags;

export const TRANSACTION_STATUSES = [
  'created',
  'pending_approval',
  'pending_kyc',
  'process',
  'processing',
  'pending',
  'pending_refund',
  'pending_liquidity',
  'refund_processing',
  'complete',
  'expired',
  'failed',
  'denied',
  'refunded',
  'cancelled',
  'refund_failed',
  'pending_settlement',
  'pending_confirmation',
  'pending_hash_confirmation',
  'hash_confirmation_received',
  'settlement_pending',
  'settlement_processing',
  'settlement_complete',
  'settlement_failed',
] as const;
export const TransactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

export const SETTLEMENT_STATUSES = ['pending', 'processing', 'complete', 'failed'] as const;
export const TRANSACTION_TYPES = ['payout', 'topup'] as const;
export const TRANSACTION_TYPE_LABELS: Record<(typeof TRANSACTION_TYPES)[number], string> = {
  payout: 'Pay out',
  topup: 'Top up',
};

export const NETWORKS = ['BTC', 'ERC20', 'TRC20', 'XLM', 'CELO', 'BASE', 'POLYGON', 'SOL'] as const;
export const Network = z.enum(NETWORKS);
export type Network = z.infer<typeof Network>;

export const COINS = ['USDC', 'USDT', 'CUSD', 'PYUSD', 'BTC'] as const;
export const Coin = z.enum(COINS);
export type Coin = z.infer<typeof Coin>;

export const CURRENCY_NETWORK_IDS = [
  'usdt-erc20',
  'usdt-trc20',
  'usdc-erc20',
  'usdc-polygon',
  'btc-btc',
  'usdc-xlm',
  'usdt-celo',
  'usdt-polygon',
  'usdt-sol',
  'usdc-sol',
  'usdc-base',
  'pyusd-erc20',
] as const;
export const CurrencyNetworkId = z.enum(CURRENCY_NETWORK_IDS);
export type CurrencyNetworkId = z.infer<typeof CurrencyNetworkId>;
export const DEFAULT_CURRENCY_NETWORK: CurrencyNetworkId = 'usdt-trc20';

const NETWORK_OF_SUFFIX: Record<string, Network> = {
  erc20: 'ERC20',
  trc20: 'TRC20',
  polygon: 'POLYGON',
  btc: 'BTC',
  xlm: 'XLM',
  celo: 'CELO',
  sol: 'SOL',
  base: 'BASE',
};
/** The coin and network of a currency network id, e.g. usdt-trc20 → USDT on TRC20. */
export function splitCurrencyNetwork(id: CurrencyNetworkId): { coin: Coin; network: Network } {
  const [coin, suffix] = id.split('-') as [string, string];
  return { coin: coin.toUpperCase() as Coin, network: NETWORK_OF_SUFFIX[suffix] as Network };
}

/** Networks and coins by name, for people (the ids stay the wire values). */
export const NETWORK_NAMES: Record<Network, string> = {
  BTC: 'Bitcoin',
  ERC20: 'Ethereum',
  TRC20: 'Tron',
  XLM: 'Stellar',
  CELO: 'Celo',
  BASE: 'Base',
  POLYGON: 'Polygon',
  SOL: 'Solana',
};
export const COIN_NAMES: Record<Coin, string> = { USDC: 'USD Coin', USDT: 'Tether USD', CUSD: 'Celo Dollar', PYUSD: 'PayPal USD', BTC: 'Bitcoin' };

/** The currency network list of transaction-data §3, keyed by id: name, network, icon (the coin's) and label. */
export type CurrencyNetworkInfo = { id: CurrencyNetworkId; coin: Coin; network: Network; name: string; icon: string; label: string };
export const CURRENCY_NETWORKS = Object.fromEntries(
  CURRENCY_NETWORK_IDS.map((id) => {
    const { coin, network } = splitCurrencyNetwork(id);
    return [id, { id, coin, network, name: `${COIN_NAMES[coin]} on ${NETWORK_NAMES[network]}`, icon: coin.toLowerCase(), label: `${coin} (${network})` }];
  }),
) as Record<CurrencyNetworkId, CurrencyNetworkInfo>;

export const CHANNEL_TYPES = ['p2p', 'eft', 'momo', 'bank', 'card', 'highvolumeotc'] as const;
export const CHANNEL_TYPE_LABELS: Record<string, string> = {
  bank: 'Bank Transfer',
  eft: 'Bank Transfer',
  p2p: 'Bank Transfer',
  momo: 'Mobile Money',
};
export const PAYMENT_METHODS = ['BANK_TRANSFER', 'MOBILE_MONEY'] as const;
export const PaymentMethod = z.enum(PAYMENT_METHODS);
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  BANK_TRANSFER: 'Bank',
  MOBILE_MONEY: 'Momo',
};
export const REQUEST_SOURCES = ['api', 'widget', 'portal'] as const;
export const RequestSource = z.enum(REQUEST_SOURCES);
export const ACCOUNT_NUMBER_TYPES = ['phone', 'bank', 'app'] as const;

export const CHALLENGE_NAMES = ['MFA_SETUP', 'SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED', 'PASSWORD_RESET_REQUESTED'] as const;
export const ChallengeName = z.enum(CHALLENGE_NAMES);
export type ChallengeName = z.infer<typeof ChallengeName>;

/** A decimal amount as a string ("25000.00"): money never travels as a float. */
export const DecimalString = z.string().regex(/^-?\d{1,30}(\.\d{1,18})?$/, 'must be a decimal number such as 1000.50');
