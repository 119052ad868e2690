import { z } from 'zod';
import { DecimalString, TRANSACTION_TYPES } from './domain.ts';

/**
 * The rows of the six transaction tables as a client receives them (transaction-data §3, §4): camelCase names of
 * the columns, times as ISO 8601 in UTC, money and rates as decimal strings. The partner a row belongs to is not
 * part of it: the reply is serialised through these schemas, so partnerId and any column not listed here never go
 * out.
 */

// any 8-4-4-4-12 hex id: the rows' ids are not all RFC 4122 versioned uuids
const Id = z.guid();
const Instant = z.iso.datetime();
const Money = DecimalString;

/** A collection (money in); a payment (money out) has the same columns. */
export const CollectionRow = z.object({
  id: Id,
  createdAt: Instant,
  status: z.string(),
  country: z.string(),
  currency: z.string(),
  amount: Money,
  convertedAmount: Money,
  rate: Money,
  paymentMethod: z.string(),
  requestSource: z.string(),
  fiatWallet: z.string().nullable(),
  sequenceId: z.string(),
  sessionId: z.string().nullable(),
  accountNumber: z.string(),
  accountType: z.string(),
  counterpartyName: z.string(),
});
export type CollectionRow = z.infer<typeof CollectionRow>;

/** @alias a payment row has the collection row's shape (transaction-data §3), under its own name */
export const PaymentRow = CollectionRow;
export type PaymentRow = z.infer<typeof PaymentRow>;

/**
 * A row of the combined table (transaction-data §3, "Combined tab"): a payment or a collection, which its transaction
 * type says (payout: a payment, money out; topup: a collection, money in, the words Fees uses for the same kinds).
 */
export const CombinedRow = CollectionRow.extend({ transactionType: z.enum(TRANSACTION_TYPES) });
export type CombinedRow = z.infer<typeof CombinedRow>;

export const SettlementRow = z.object({
  id: Id,
  createdAt: Instant,
  status: z.string(),
  type: z.string(),
  transactionHash: z.string().nullable(),
  internalWalletAddress: z.string(),
  externalWalletAddress: z.string(),
  cryptoCurrency: z.string(),
  cryptoAmount: Money,
  network: z.string(),
  cryptoRate: Money,
  fiatAmountUsd: Money,
  walletBalanceUsd: Money,
  fiatAmount: Money.nullable(),
  fiatRate: Money.nullable(),
  fiatWallet: z.string().nullable(),
  sequenceId: z.string(),
});
export type SettlementRow = z.infer<typeof SettlementRow>;

export const FeeRow = z.object({
  id: Id,
  createdAt: Instant,
  transactionId: Id,
  transactionType: z.string(),
  paymentMethod: z.string(),
  amountUsd: Money,
  fiatWallet: z.string().nullable(),
});
export type FeeRow = z.infer<typeof FeeRow>;

export const TradeRow = z.object({
  id: Id,
  createdAt: Instant,
  tradeId: z.string(),
  tradeLockedDate: Instant,
  status: z.string(),
  country: z.string(),
  fiatCurrency: z.string(),
  cryptoCurrency: z.string(),
  network: z.string(),
  tradeType: z.string(),
  cryptoTransactionType: z.string(),
  effectiveRate: Money,
  quotedRate: Money,
  fee: Money,
  cryptoAmount: Money,
  fiatAmount: Money,
  cryptoBought: Money,
  cryptoSold: Money,
  fiatSold: Money,
  fiatBought: Money,
  fiatWallet: z.string().nullable(),
});
export type TradeRow = z.infer<typeof TradeRow>;

export const InitiatedPaymentRow = z.object({
  id: Id,
  createdAt: Instant,
  status: z.string(),
  country: z.string(),
  localCurrency: z.string(),
  amount: Money,
  amountUsd: Money,
  paymentMethod: z.string(),
  recipientName: z.string(),
  accountNumber: z.string(),
  reference: z.string(),
  fiatWallet: z.string().nullable(),
});
export type InitiatedPaymentRow = z.infer<typeof InitiatedPaymentRow>;

/** The row schema of each search table (the keys of SEARCH_TABLES). */
export const ROW_SCHEMAS = {
  payments: PaymentRow,
  collections: CollectionRow,
  settlements: SettlementRow,
  fees: FeeRow,
  trades: TradeRow,
  'initiate-payments': InitiatedPaymentRow,
  all: CombinedRow,
} as const;

export type TransactionRowOf<T extends keyof typeof ROW_SCHEMAS> = z.infer<(typeof ROW_SCHEMAS)[T]>;
/** A row of any of the tables. */
export type TransactionRow = TransactionRowOf<keyof typeof ROW_SCHEMAS>;
