import { z } from 'zod';
import { Coin, DecimalString, Network, SETTLEMENT_STATUSES, type Coin as CoinT } from './domain.ts';
import { compareDecimal, groupThousands } from './decimal.ts';
import { addressText } from './validation.ts';
import { TravelRuleInfo, WALLET_MESSAGES } from './wallets.ts';

/** Withdrawals of the balance to a settlement wallet (portal-core §3 settlement request, §4 withdrawal, §9). */

export const SettlementStatus = z.enum(SETTLEMENT_STATUSES);
export type SettlementStatus = z.infer<typeof SettlementStatus>;

/** Where a settlement request comes from: the portal sends 'dashboard'. */
export const SETTLEMENT_SOURCE = 'dashboard';
/** The coins a withdrawal can be paid in: USD stablecoins (BTC has no price here). */
export const WITHDRAWAL_COINS: readonly CoinT[] = ['USDT', 'USDC', 'PYUSD', 'CUSD'];
/** The smallest withdrawal, in USD. */
export const WITHDRAWAL_MIN_USD = '10.00';
/** Withdrawal processing takes this long (portal-core §9), as the acknowledgement says. */
export const WITHDRAWAL_PROCESSING_MINUTES = { min: 5, max: 20 } as const;
/** How long a high-value pay-in takes (processed by hand), and when payments arrive (portal-core §9). */
export const HIGH_VALUE_PAY_IN_HOURS = { min: 6, max: 36 } as const;
export const PAYMENT_ARRIVAL_HOURS = { min: 24, max: 48 } as const;

export const WITHDRAWAL_MESSAGES = {
  /** The most that can be withdrawn now, said the same way in the dialog's hint and in its error (and the server's). */
  atMost: (max: string) => `You can withdraw at most USD ${groupThousands(max)}`,
  amountAtLeast: `Enter amount of at least USD ${WITHDRAWAL_MIN_USD}`,
  noWallet: 'Cannot withdraw funds without setting a wallet address',
  irreversible:
    'Blockchain transactions are irreversible. Check that the wallet address and network are correct: funds sent to a wrong address cannot be recovered.',
  pending: `Your withdrawal is pending. Processing takes ${WITHDRAWAL_PROCESSING_MINUTES.min} to ${WITHDRAWAL_PROCESSING_MINUTES.max} minutes; it shows in the Settlements tab of Transactions.`,
  feeTooHigh: 'The amount does not cover the network fee: enter a larger amount',
  travelRuleRequired: "Enter the recipient's full name and business registration number: the travel rule asks for them on this amount",
  sequenceReused: 'This sequenceId was already used for a different withdrawal: send a new sequenceId for a new withdrawal',
  walletNotEnabled: 'This wallet address is not enabled for withdrawals: choose an enabled wallet',
  // portal-core §8, with the reason appended by the portal
  failed: 'could not process settlement: ',
  travelRuleFetchFailed: "Couldn't fetch travel rule config",
  coinNotOffered: (coin: string) => `Withdrawals in ${coin} are not offered: choose a stablecoin wallet`,
  usdOnly: 'Withdrawals are made from the USD balance: leave fiatWallet empty or send USD',
  receivingWalletMismatch: 'receivingWallet is not the wallet of walletAddress',
  walletReceives: (currencies: readonly string[], coin: string) => `This wallet address receives ${currencies.join(', ')}, not ${coin}`,
} as const;

/** A USD amount: positive, at most 2 decimals. */
export const UsdAmount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, 'Enter an amount in USD with at most 2 decimals');

/** POST partner/settlement/withdrawal: the settlement request of portal-core §3. */
export const SettlementRequest = z.object({
  /** USD taken from the balance */
  amount: UsdAmount,
  /** the client's id of this withdrawal: sending it again returns the first result and books nothing */
  sequenceId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,100}$/, 'sequenceId must be 8 to 100 letters, digits, - or _'),
  source: z.literal(SETTLEMENT_SOURCE).default(SETTLEMENT_SOURCE),
  walletAddress: addressText(WALLET_MESSAGES.invalidAddress),
  cryptoCurrency: Coin,
  cryptoNetwork: Network,
  /** the balance the amount comes from: the USD balance (the default fiat wallet) */
  fiatWallet: z.string().trim().max(20).nullish(),
  /** the settlement wallet's id, when the client knows it: it must be the wallet of walletAddress */
  receivingWallet: z.string().uuid().nullish(),
  travelRuleInfo: TravelRuleInfo.nullish(),
});
export type SettlementRequest = z.input<typeof SettlementRequest>;

/** A withdrawal as its requester sees it. */
export const Settlement = z.object({
  id: z.string().uuid(),
  sequenceId: z.string(),
  status: SettlementStatus,
  type: z.literal('payout'),
  /** USD taken from the balance */
  amount: DecimalString,
  cryptoCurrency: Coin,
  cryptoNetwork: Network,
  /** USD per coin */
  rate: DecimalString,
  /** the network fee, in the coin, taken from what is sent */
  feeAmount: DecimalString,
  /** what arrives in the wallet, in the coin */
  cryptoAmount: DecimalString,
  walletAddress: z.string(),
  walletTag: z.string().nullable(),
  createdAt: z.string(),
});
export type Settlement = z.infer<typeof Settlement>;
export const WithdrawalResponse = z.object({ settlement: Settlement });
export type WithdrawalResponse = z.infer<typeof WithdrawalResponse>;

/**
 * GET partner/settlement/fee (portal-core §7: cryptoAmount, cryptoCurrency, cryptoNetwork → feeAmount). The portal
 * may send the USD `amount` instead of cryptoAmount, and gets the whole quote: rate, fee and what arrives.
 */
export const SettlementFeeQuery = z
  .object({
    cryptoAmount: DecimalString.optional(),
    amount: UsdAmount.optional(),
    cryptoCurrency: Coin,
    cryptoNetwork: Network,
  })
  .refine((q) => q.cryptoAmount !== undefined || q.amount !== undefined, { message: 'cryptoAmount or amount is required', path: ['cryptoAmount'] });
export type SettlementFeeQuery = z.input<typeof SettlementFeeQuery>;
export const SettlementFeeResponse = z.object({
  feeAmount: DecimalString,
  feeCurrency: Coin,
  rate: DecimalString,
  cryptoAmount: DecimalString,
  /** cryptoAmount less the fee (0 when the fee is larger) */
  receiveAmount: DecimalString,
  /** the most that can be withdrawn now, in USD: the balance, or the per-withdrawal limit when lower */
  maxAmount: DecimalString,
});
export type SettlementFeeResponse = z.infer<typeof SettlementFeeResponse>;

export const TRAVEL_RULE_FIELDS = ['name', 'businessRegistrationNumber'] as const;
/** Travel rule config of portal-core §3. */
export const TravelRuleConfig = z.object({
  id: z.string(),
  countryCode: z.string(),
  customerType: z.string(),
  /** in USD: withdrawals of this amount or more need the dataFields */
  minAmount: DecimalString,
  dataFields: z.array(z.enum(TRAVEL_RULE_FIELDS)),
  status: z.enum(['ACTIVE', 'INACTIVE']),
});
export type TravelRuleConfig = z.infer<typeof TravelRuleConfig>;
export const TravelRuleResponse = z.object({ configs: z.array(TravelRuleConfig) });
export type TravelRuleResponse = z.infer<typeof TravelRuleResponse>;

/** The travel-rule fields a withdrawal of `amount` USD needs: those of every active config whose minimum it reaches. */
export function travelRuleFieldsFor(configs: readonly TravelRuleConfig[], amount: string): (typeof TRAVEL_RULE_FIELDS)[number][] {
  const fields = new Set<(typeof TRAVEL_RULE_FIELDS)[number]>();
  for (const c of configs) {
    if (c.status !== 'ACTIVE' || !/^\d+(\.\d+)?$/.test(amount.trim())) continue;
    if (compareDecimal(amount, c.minAmount) >= 0) c.dataFields.forEach((f) => fields.add(f));
  }
  return TRAVEL_RULE_FIELDS.filter((f) => fields.has(f));
}
