import type { TransactionStatus } from '@portal/contract/domain';
import type { Payment } from '@portal/contract/payments';
import { formatMoney } from './format.ts';
import { translator, type Translate } from './i18n.ts';
import { outcomeMessages } from './outcome-messages.ts';

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

type Wording = (m: Required<Movement>, t: Translate<typeof outcomeMessages.en>) => Omit<Outcome, 'payerInstructions'>;

/** The state → wording table: per kind, per stage. */
const OUTCOMES: Record<MovementKind, Record<Stage, Wording>> = {
  collection: {
    waiting: (m, t) => ({
      summary: t('collection.waiting'),
      lines: [
        { label: t('yourBalance'), value: t('nothingCreditedYet') },
        { label: t('creditedOncePaid'), value: usd(m.balanceUsd) },
      ],
    }),
    done: (m, t) => ({
      summary: t('collection.done', { amount: formatMoney(m.amount, m.currency) }),
      lines: [{ label: t('creditedToBalance'), value: usd(m.balanceUsd) }],
    }),
    ended: (_m, t) => ({
      summary: t('collection.ended'),
      lines: [{ label: t('yourBalance'), value: t('nothingWasCredited') }],
    }),
    refunding: (m, t) => ({
      summary: t('collection.refunding'),
      lines: [
        { label: t('creditedToBalance'), value: usd(m.balanceUsd) },
        { label: t('beingRefundedToPayer'), value: formatMoney(m.amount, m.currency) },
      ],
    }),
    refunded: (m, t) => ({
      summary: t('collection.refunded', { amount: formatMoney(m.amount, m.currency) }),
      lines: [
        { label: t('refundedToPayer'), value: formatMoney(m.amount, m.currency) },
        { label: t('takenBackFromBalance'), value: usd(m.amountUsd) },
        ...(Number(m.feeUsd) > 0 ? [{ label: t('feeKept'), value: usd(m.feeUsd) }] : []),
      ],
    }),
    refund_failed: (m, t) => ({
      summary: t('collection.refundFailed'),
      lines: [{ label: t('creditedToBalance'), value: usd(m.balanceUsd) }],
    }),
  },
  disbursement: {
    waiting: (m, t) => ({
      summary: t('disbursement.waiting', { amount: usd(m.balanceUsd) }),
      lines: [{ label: t('reservedFromBalance'), value: usd(m.balanceUsd) }],
    }),
    done: (m, t) => ({
      summary: t('disbursement.done', { amount: formatMoney(m.amount, m.currency) }),
      lines: [
        { label: t('takenFromBalance'), value: usd(m.balanceUsd) },
        { label: t('paidToRecipient'), value: formatMoney(m.amount, m.currency) },
      ],
    }),
    ended: (m, t) => ({
      summary: t('nothingSent', { amount: usd(m.balanceUsd) }),
      lines: [
        { label: t('paidToRecipient'), value: t('nothingWasSent') },
        { label: t('returnedToBalance'), value: usd(m.balanceUsd) },
      ],
    }),
    refunding: (m, t) => ({
      summary: t('disbursement.refunding'),
      lines: [
        { label: t('takenFromBalance'), value: usd(m.balanceUsd) },
        { label: t('beingReturnedToBalance'), value: usd(m.amountUsd) },
      ],
    }),
    refunded: (m, t) => ({
      summary: t('disbursement.refunded', { amount: usd(m.amountUsd) }),
      lines: [
        { label: t('takenFromBalance'), value: usd(m.balanceUsd) },
        { label: t('returnedToBalance'), value: usd(m.amountUsd) },
        ...(Number(m.feeUsd) > 0 ? [{ label: t('feeKept'), value: usd(m.feeUsd) }] : []),
      ],
    }),
    refund_failed: (m, t) => ({
      summary: t('disbursement.refundFailed'),
      lines: [{ label: t('takenFromBalance'), value: usd(m.balanceUsd) }],
    }),
  },
  withdrawal: {
    waiting: (m, t) => ({
      summary: t('withdrawal.waiting', { amount: usd(m.balanceUsd) }),
      lines: [{ label: t('reservedFromBalance'), value: usd(m.balanceUsd) }],
    }),
    done: (m, t) => ({ summary: t('withdrawal.done'), lines: [{ label: t('takenFromBalance'), value: usd(m.balanceUsd) }] }),
    ended: (m, t) => ({
      summary: t('nothingSent', { amount: usd(m.balanceUsd) }),
      lines: [{ label: t('returnedToBalance'), value: usd(m.balanceUsd) }],
    }),
    refunding: (m, t) => ({ summary: t('withdrawal.refunding'), lines: [{ label: t('beingReturnedToBalance'), value: usd(m.balanceUsd) }] }),
    refunded: (m, t) => ({ summary: t('withdrawal.refunded'), lines: [{ label: t('returnedToBalance'), value: usd(m.balanceUsd) }] }),
    refund_failed: (m, t) => ({ summary: t('withdrawal.refundFailed'), lines: [{ label: t('takenFromBalance'), value: usd(m.balanceUsd) }] }),
  },
  deposit: {
    waiting: (_m, t) => ({ summary: t('deposit.waiting'), lines: [{ label: t('yourBalance'), value: t('nothingCreditedYet') }] }),
    done: (m, t) => ({ summary: t('deposit.done'), lines: [{ label: t('creditedToBalance'), value: usd(m.balanceUsd) }] }),
    ended: (_m, t) => ({ summary: t('deposit.ended'), lines: [{ label: t('yourBalance'), value: t('nothingWasCredited') }] }),
    refunding: (m, t) => ({ summary: t('deposit.refunding'), lines: [{ label: t('beingSentBack'), value: usd(m.balanceUsd) }] }),
    refunded: (m, t) => ({ summary: t('deposit.refunded'), lines: [{ label: t('takenBackFromBalance'), value: usd(m.balanceUsd) }] }),
    refund_failed: (m, t) => ({ summary: t('deposit.refundFailed'), lines: [{ label: t('creditedToBalance'), value: usd(m.balanceUsd) }] }),
  },
};

/** A collection's payer can still follow its instructions only while it awaits payment. */
const AWAITING_PAYMENT: readonly string[] = ['created', 'pending'];

/** What the movement's state did and did not move, each amount with its currency, in the language in force. */
export function moneyOutcome(m: Movement): Outcome {
  const full: Required<Movement> = { ...m, amountUsd: m.amountUsd ?? m.balanceUsd, feeUsd: m.feeUsd ?? '0' };
  const status = m.status.toLowerCase();
  return {
    ...OUTCOMES[m.kind][stageOf(status)](full, translator(outcomeMessages)),
    payerInstructions: m.kind === 'collection' && AWAITING_PAYMENT.includes(status),
  };
}
