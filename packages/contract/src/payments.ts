import { z } from 'zod';
import { groupThousands } from './decimal.ts';
import { DecimalString, TRANSACTION_STATUSES, type ACCOUNT_NUMBER_TYPES } from './domain.ts';
import { safeText } from './validation.ts';

/**
 * Collections (money in from a payer) and disbursements (money out to a recipient) that a partner initiates
 * (portal-core §7: POST partner/collection, GET collections/{id}, POST partner/disbursement, GET disbursements/{id}).
 * Amounts are in the country's local currency; the USD side (rate, fee, total) is quoted by the server.
 */

export const PAYMENT_KINDS = ['collection', 'disbursement'] as const;
export const PaymentKind = z.enum(PAYMENT_KINDS);
export type PaymentKind = z.infer<typeof PaymentKind>;

export const PaymentStatus = z.enum(TRANSACTION_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** A collection goes in through a deposit channel, a disbursement out through a withdraw channel. */
export const RAMP_OF_KIND = { collection: 'deposit', disbursement: 'withdraw' } as const satisfies Record<PaymentKind, 'deposit' | 'withdraw'>;

/**
 * The sandbox's test amounts (like card-network test numbers): the last digit of the amount's whole part decides how
 * the payment ends. Any other digit completes. Documented in the API docs.
 */
export const SANDBOX_OUTCOMES = ['complete', 'failed', 'expired', 'refunded', 'denied'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];
export const SANDBOX_TEST_DIGITS: Record<string, Exclude<SandboxOutcome, 'complete'>> = { '1': 'failed', '2': 'expired', '3': 'refunded', '4': 'denied' };
export function sandboxOutcome(amount: string): SandboxOutcome {
  const whole = amount.trim().replace(/^-/, '').split('.')[0] ?? '';
  return SANDBOX_TEST_DIGITS[whole.slice(-1)] ?? 'complete';
}
/** The states each outcome passes through, in order (transaction-data §4 status values). */
export const SANDBOX_PATHS: Record<SandboxOutcome, readonly PaymentStatus[]> = {
  complete: ['created', 'pending', 'processing', 'complete'],
  failed: ['created', 'pending', 'processing', 'failed'],
  expired: ['created', 'pending', 'expired'],
  refunded: ['created', 'pending', 'processing', 'complete', 'pending_refund', 'refunded'],
  denied: ['created', 'pending_approval', 'denied'],
};
export const SANDBOX_DOCS =
  'Sandbox test amounts: the last digit of the whole part of `amount` decides the outcome. 1 fails (a disbursement returns the reserved amount), ' +
  '2 expires (the payer never pays / the recipient never claims), 3 completes and is then refunded, 4 is denied by compliance, any other digit ' +
  'completes. Paths: created → pending → processing → complete | failed; created → pending → expired; … complete → pending_refund → refunded; ' +
  'created → pending_approval → denied. Each state lasts PAYMENT_STEP_SECONDS (a few seconds in the demo).';

const PHONE_NUMBER_MESSAGE = 'Enter a phone number with its country code, digits only (7 to 15)';

export const PAYMENT_MESSAGES = {
  notEnabled: 'Payments are not enabled for this partner',
  channelUnavailable: 'This channel is not available: choose an active channel of the country',
  networkUnavailable: 'This payment network is not available for this channel: choose an active network',
  countryNotEnabled: 'This country is not enabled for your account',
  amountBelow: (min: string, currency: string) => `Enter an amount of at least ${currency} ${groupThousands(min)}`,
  amountAbove: (max: string, currency: string) => `Enter an amount of at most ${currency} ${groupThousands(max)}`,
  amountPositive: 'Enter an amount above zero',
  amountDecimals: 'Enter an amount in the local currency with at most 2 decimals',
  insufficientBalance: (balance: string) => `Your USD balance (${groupThousands(balance)}) does not cover this payment and its fee`,
  sequenceReused: 'This sequenceId was already used for a different payment: send a new sequenceId for a new payment',
  accountNumber: {
    phone: PHONE_NUMBER_MESSAGE,
    bank: 'Enter a bank account number of 6 to 20 digits',
    app: 'Enter the app account id (3 to 64 letters, digits, . _ - @)',
  },
  notFound: 'Payment not found',
  /** a mobile-money payment without the number to pay */
  phoneNeeded: `accountNumber: ${PHONE_NUMBER_MESSAGE}`,
} as const;

/** What is wrong with a local amount as typed, before the channel's limits (undefined when nothing): zero or less, then the format. */
export function localAmountProblem(text: string): string | undefined {
  const t = text.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t) && Number(t) <= 0) return PAYMENT_MESSAGES.amountPositive;
  return /^\d{1,15}(\.\d{1,2})?$/.test(t) ? undefined : PAYMENT_MESSAGES.amountDecimals;
}
const LocalAmount = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = localAmountProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The account number rules of a payment, by the network's account number type (a collection's payer: phone or bank). */
type AccountNumberType = (typeof ACCOUNT_NUMBER_TYPES)[number];
const ACCOUNT_NUMBER_PATTERNS: Record<AccountNumberType, RegExp> = { phone: /^\+?\d{7,15}$/, bank: /^\d{6,20}$/, app: /^[A-Za-z0-9._@-]{3,64}$/ };
/** The account number as it is checked and stored: spaces and dashes dropped from phone and bank numbers. */
export const cleanAccountNumber = (type: AccountNumberType, value: string) => (type === 'app' ? value.trim() : value.replace(/[\s-]/g, ''));
/** The message for an account number the rules refuse, or undefined when it passes. */
export const accountNumberProblem = (type: AccountNumberType, value: string): string | undefined =>
  ACCOUNT_NUMBER_PATTERNS[type].test(cleanAccountNumber(type, value)) ? undefined : PAYMENT_MESSAGES.accountNumber[type];
const Country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code');
const SequenceId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'must be 1 to 64 printable ASCII characters');

export const DisbursementRequest = z.object({
  country: Country,
  channelId: z.string().uuid(),
  networkId: z.string().uuid(),
  accountNumber: z.string().trim().min(1).max(64),
  recipient: z.object({ name: safeText({ min: 1, max: 120 }) }),
  amount: LocalAmount,
  reference: safeText({ max: 64 }).optional(),
  sequenceId: SequenceId,
});
export type DisbursementRequest = z.infer<typeof DisbursementRequest>;

export const CollectionRequest = z.object({
  country: Country,
  channelId: z.string().uuid(),
  /** the payer's phone (mobile money) or bank account; optional for a bank transfer */
  accountNumber: z.string().trim().min(1).max(64).optional(),
  payer: z.object({ name: safeText({ min: 1, max: 120 }) }),
  amount: LocalAmount,
  reference: safeText({ max: 64 }).optional(),
  sequenceId: SequenceId,
});
export type CollectionRequest = z.infer<typeof CollectionRequest>;

export const PaymentQuoteQuery = z.object({ kind: PaymentKind, country: Country, channelId: z.string().uuid(), amount: LocalAmount });
/** What a payment comes to, as quoted and as made: the market, the local amount, and its value in USD with the fee. */
const PaymentFigures = {
  country: z.string(),
  currency: z.string(),
  amount: DecimalString,
  /** local currency per USD */
  rate: DecimalString,
  amountUsd: DecimalString,
  feeUsd: DecimalString,
  /** a disbursement reserves amountUsd + feeUsd; a collection credits amountUsd - feeUsd */
  totalUsd: DecimalString,
};
export const PaymentQuote = z.object({
  kind: PaymentKind,
  ...PaymentFigures,
  min: DecimalString,
  max: DecimalString,
  balanceUsd: DecimalString,
});
export type PaymentQuote = z.infer<typeof PaymentQuote>;

/** The markets (country and currency) the partner may pay in: its enabled countries, the ones the quote and the payment accept. */
export const PaymentMarket = z.object({ country: z.string(), currency: z.string() });
export type PaymentMarket = z.infer<typeof PaymentMarket>;
export const PaymentMarketsResponse = z.object({ markets: z.array(PaymentMarket) });
export type PaymentMarketsResponse = z.infer<typeof PaymentMarketsResponse>;

export const CollectionInstructions = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('bank_transfer'),
    bankName: z.string(),
    accountName: z.string(),
    accountNumber: z.string(),
    reference: z.string(),
    amount: DecimalString,
    currency: z.string(),
  }),
  z.object({
    type: z.literal('mobile_money'),
    prompt: z.string(),
    phoneNumber: z.string().nullable(),
    reference: z.string(),
    amount: DecimalString,
    currency: z.string(),
  }),
]);
export type CollectionInstructions = z.infer<typeof CollectionInstructions>;

export const Payment = z.object({
  id: z.string().uuid(),
  kind: PaymentKind,
  status: PaymentStatus,
  sequenceId: z.string(),
  ...PaymentFigures,
  channelId: z.string().uuid(),
  channelType: z.string(),
  paymentMethod: z.string(),
  networkId: z.string().uuid().nullable(),
  networkName: z.string().nullable(),
  accountNumber: z.string().nullable(),
  accountType: z.string().nullable(),
  counterpartyName: z.string(),
  reference: z.string(),
  source: z.string(),
  instructions: CollectionInstructions.nullable(),
  failureReason: z.string().nullable(),
  timeline: z.array(z.object({ status: PaymentStatus, at: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Payment = z.infer<typeof Payment>;

export const PaymentResponse = z.object({ payment: Payment });
export type PaymentResponse = z.infer<typeof PaymentResponse>;
export const PaymentIdParams = z.object({ id: z.string().uuid() });
