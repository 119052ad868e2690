import { OUTCOME_STATUSES, type AnalyticsKind, type AnalyticsReply } from '@portal/contract/analytics';
import { transactionsLink } from '../../lib/transaction-links.ts';
import { addDays } from '@portal/contract/analytics';

/**
 * Where each figure of the Overview leads: the table it was counted from, with the filters that give the same rows
 * (the tables read the days in the user's zone, as the Overview does). The server's test holds each count equal to
 * the total of its table so filtered.
 */

/** The days and the wallet of a figure. */
export type Scope = { from: string; to: string; wallet: string };
export type Outcome = keyof typeof OUTCOME_STATUSES;
/** A reply of the Overview with the days and wallet it was asked for: what its figures link to. */
export type Figures = { reply: AnalyticsReply; scope: Scope };

/** A type's volume: its table's rows that succeeded. */
export const volumeLink = (kind: AnalyticsKind, scope: Scope) => transactionsLink(kind, { ...scope, filters: { status: OUTCOME_STATUSES.succeeded } });

/**
 * Collections and payments together (the combined tab): those that ended so (every row without an outcome), narrowed
 * to a country, a payment method or a type (payout: payments, topup: collections).
 */
export const corridorLink = (
  scope: Scope,
  outcome: Outcome | undefined,
  by: { country?: string; paymentMethod?: string; transactionType?: 'payout' | 'topup' } = {},
) => transactionsLink('all', { ...scope, filters: { ...(outcome && { status: OUTCOME_STATUSES[outcome] }), ...by } });

/** The type of the combined tab's rows of a kind. */
export const transactionTypeOf = (kind: 'collections' | 'payments') => (kind === 'payments' ? 'payout' : 'topup');

/**
 * The days each step of the charts covers, for its links: its own day for an hour or a day, for a month from its
 * first day to the day before the next step's (the period's last day for the last). A step of hours opens its whole
 * day: the tables filter by days.
 */
export function stepDays(reply: Pick<AnalyticsReply, 'bucket' | 'series' | 'period'>): { from: string; to: string }[] {
  return reply.series.map((step, i) => {
    if (reply.bucket !== 'month') return { from: step.day, to: step.day };
    const next = reply.series[i + 1];
    return { from: step.day, to: next ? addDays(next.day, -1) : reply.period.to };
  });
}
