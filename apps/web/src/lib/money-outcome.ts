import type { TransactionStatus } from '@portal/contract/domain';
import type { Payment } from '@portal/contract/payments';
import { formatMoney } from './format.ts';

/**
 * What a state of a money movement did and did not move, in words: the one table the payment result and the
 * transactions' details drawer read. The wording follows the ledger (payments' bookState): a collection credits the
 * balance only when complete (the amount less the fee) and a refund takes the collected amount back; a disbursement
 * reserves the amount and its fee at creation, returns both when it fails, expires or is denied, and returns the
 * amount (not the fee) when refunded. A withdrawal (settlement pay out) reserves at its request and returns when it
 * fails; a top up credits when complete.
 */

/** The stage a status stands for. */
type Stage = 'waiting' | 'done' | 'ended' | 'refunding' | 'refunded' | 'refund_failed';

const STAGE_OF: Record<TransactionStatus, Stage> = {
  created: 'waiting',
  pending_approval: 'waiting',
  pending_kyc: 'waiting',
  process: 'waiting',
  processing: 'waiting',
  pending: 'waiting',
  pending_liquidity: 'waiting',
  pending_settlement: 'waiting',
  pending_confirmation: 'waiting',
  pending_hash_confirmation: 'waiting',
  hash_confirmation_received: 'waiting',
  settlement_pending: 'waiting',
  settlement_processing: 'waiting',
  complete: 'done',
  settlement_complete: 'done',
  expired: 'ended',
  failed: 'ended',
  denied: 'ended',
  cancelled: 'ended',
  settlement_failed: 'ended',
  pending_refund: 'refunding',
  refund_processing: 'refunding',
  refunded: 'refunded',
  refund_failed: 'refund_failed',
};

/** The stage of a status; an unknown status counts as still under way (nothing is said to have moved). */
const stageOf = (status: string): Stage => STAGE_OF[status.toLowerCase() as TransactionStatus] ?? 'waiting';

type MovementKind = 'collection' | 'disbursement' | 'withdrawal' | 'deposit';

/** The figures of a movement. Amounts are decimal strings. */
export type Movement = {
  kind: MovementKind;
  status: string;
  /** what the payer pays or the recipient gets, in its currency */
  amount: string;
  currency: string;
  /** the USD that the balance gets (collection: amount less fee) or gives (disbursement: amount and fee; settlement: amount) */
  balanceUsd: string;
  /** the USD value of the amount, before the fee (a refund of a disbursement returns this); defaults to balanceUsd */
  amountUsd?: string;
  feeUsd?: string;
};

/** The movement of a collection or disbursement order, as the payments API answers it. */
export const paymentMovement = (p: Pick<Payment, 'kind' | 'status' | 'amount' | 'currency' | 'totalUsd' | 'amountUsd' | 'feeUsd'>): Movement => ({
  kind: p.kind,
  status: p.status,
  amount: p.amount,
  currency: p.currency,
  balanceUsd: p.totalUsd,
  amountUsd: p.amountUsd,
  feeUsd: p.feeUsd,
});

type OutcomeLine = { label: string; value: string };
type Outcome = {
  /** one sentence: what happened */
  summary: string;
  lines: OutcomeLine[];
  /** the payer's instructions can still be followed (a collection awaiting payment) */
  payerInstructions: boolean;
};

const usd = (amount: string) => formatMoney(amount, 'USD');

type Wording = (m: Required<Movement>) => Omit<Outcome, 'payerInstructions'>;

/** The state → wording table: per kind, per stage. */
const OUTCOMES: Record<MovementKind, Record<Stage, Wording>> = {
  collection: {
    waiting: (m) => ({
      summary: 'Waiting for the payer. Nothing has been credited yet.',
      lines: [
        { label: 'Your balance', value: 'Nothing credited yet' },
        { label: 'Credited once the payer pays', value: usd(m.balanceUsd) },
      ],
    }),
    done: (m) => ({
      summary: `The payer paid ${formatMoney(m.amount, m.currency)}.`,
      lines: [{ label: 'Credited to your balance', value: usd(m.balanceUsd) }],
    }),
    ended: () => ({
      summary: 'The payer did not pay. Nothing was credited.',
      lines: [{ label: 'Your balance', value: 'Nothing was credited' }],
    }),
    refunding: (m) => ({
      summary: 'The payment is being refunded to the payer.',
      lines: [
        { label: 'Credited to your balance', value: usd(m.balanceUsd) },
        { label: 'Being refunded to the payer', value: formatMoney(m.amount, m.currency) },
      ],
    }),
    refunded: (m) => ({
      summary: `Refunded to the payer: ${formatMoney(m.amount, m.currency)}.`,
      lines: [
        { label: 'Refunded to the payer', value: formatMoney(m.amount, m.currency) },
        { label: 'Taken back from your balance', value: usd(m.amountUsd) },
        ...(Number(m.feeUsd) > 0 ? [{ label: 'Fee kept', value: usd(m.feeUsd) }] : []),
      ],
    }),
    refund_failed: (m) => ({
      summary: 'The refund to the payer failed. The payment stays credited.',
      lines: [{ label: 'Credited to your balance', value: usd(m.balanceUsd) }],
    }),
  },
  disbursement: {
    waiting: (m) => ({
      summary: `${usd(m.balanceUsd)} reserved from your balance. Nothing has reached the recipient yet.`,
      lines: [{ label: 'Reserved from your balance', value: usd(m.balanceUsd) }],
    }),
    done: (m) => ({
      summary: `The recipient was paid ${formatMoney(m.amount, m.currency)}.`,
      lines: [
        { label: 'Taken from your balance', value: usd(m.balanceUsd) },
        { label: 'Paid to the recipient', value: formatMoney(m.amount, m.currency) },
      ],
    }),
    ended: (m) => ({
      summary: `Nothing was sent. ${usd(m.balanceUsd)} returned to your balance.`,
      lines: [
        { label: 'Paid to the recipient', value: 'Nothing was sent' },
        { label: 'Returned to your balance', value: usd(m.balanceUsd) },
      ],
    }),
    refunding: (m) => ({
      summary: 'The recipient’s side is sending the payment back.',
      lines: [
        { label: 'Taken from your balance', value: usd(m.balanceUsd) },
        { label: 'Being returned to your balance', value: usd(m.amountUsd) },
      ],
    }),
    refunded: (m) => ({
      summary: `The payment came back. ${usd(m.amountUsd)} returned to your balance.`,
      lines: [
        { label: 'Taken from your balance', value: usd(m.balanceUsd) },
        { label: 'Returned to your balance', value: usd(m.amountUsd) },
        ...(Number(m.feeUsd) > 0 ? [{ label: 'Fee kept', value: usd(m.feeUsd) }] : []),
      ],
    }),
    refund_failed: (m) => ({
      summary: 'The return of the payment failed. Nothing came back to your balance.',
      lines: [{ label: 'Taken from your balance', value: usd(m.balanceUsd) }],
    }),
  },
  withdrawal: {
    waiting: (m) => ({
      summary: `${usd(m.balanceUsd)} reserved from your balance until the withdrawal is sent.`,
      lines: [{ label: 'Reserved from your balance', value: usd(m.balanceUsd) }],
    }),
    done: (m) => ({ summary: 'Sent to your wallet.', lines: [{ label: 'Taken from your balance', value: usd(m.balanceUsd) }] }),
    ended: (m) => ({
      summary: `Nothing was sent. ${usd(m.balanceUsd)} returned to your balance.`,
      lines: [{ label: 'Returned to your balance', value: usd(m.balanceUsd) }],
    }),
    refunding: (m) => ({ summary: 'Being returned to your balance.', lines: [{ label: 'Being returned to your balance', value: usd(m.balanceUsd) }] }),
    refunded: (m) => ({ summary: 'Returned to your balance.', lines: [{ label: 'Returned to your balance', value: usd(m.balanceUsd) }] }),
    refund_failed: (m) => ({ summary: 'The return failed.', lines: [{ label: 'Taken from your balance', value: usd(m.balanceUsd) }] }),
  },
  deposit: {
    waiting: () => ({ summary: 'Waiting for the deposit. Nothing has been credited yet.', lines: [{ label: 'Your balance', value: 'Nothing credited yet' }] }),
    done: (m) => ({ summary: 'Credited to your balance.', lines: [{ label: 'Credited to your balance', value: usd(m.balanceUsd) }] }),
    ended: () => ({ summary: 'Nothing was credited.', lines: [{ label: 'Your balance', value: 'Nothing was credited' }] }),
    refunding: (m) => ({ summary: 'The deposit is being sent back.', lines: [{ label: 'Being sent back', value: usd(m.balanceUsd) }] }),
    refunded: (m) => ({ summary: 'The deposit was sent back.', lines: [{ label: 'Taken back from your balance', value: usd(m.balanceUsd) }] }),
    refund_failed: (m) => ({ summary: 'The return of the deposit failed.', lines: [{ label: 'Credited to your balance', value: usd(m.balanceUsd) }] }),
  },
};

/** A collection's payer can still follow its instructions only while it awaits payment. */
const AWAITING_PAYMENT: readonly string[] = ['created', 'pending'];

/** What the movement's state did and did not move, each amount with its currency. */
export function moneyOutcome(m: Movement): Outcome {
  const full: Required<Movement> = { ...m, amountUsd: m.amountUsd ?? m.balanceUsd, feeUsd: m.feeUsd ?? '0' };
  const status = m.status.toLowerCase();
  return { ...OUTCOMES[m.kind][stageOf(status)](full), payerInstructions: m.kind === 'collection' && AWAITING_PAYMENT.includes(status) };
}
