import { z } from 'zod';
import { DecimalString } from './domain.ts';
import { TimeZoneName } from './time-zone.ts';
import { CalendarDate } from './validation.ts';
import { FiatWalletChoice, REVERSED_RANGE_MESSAGE } from './transactions.ts';
import { STATUS_GROUPS } from './status-groups.ts';

/**
 * The Overview (GET partner/analytics): how the partner's business moved over a period of calendar days in the
 * user's zone, from the same rows the transaction tables show. Collections and payments are the corridors (country,
 * channel, operator); settlements (withdrawals and top-ups) count in the volumes. Amounts are in the wallet's
 * currency: USD for all wallets or the USD one (the rows' converted amounts), the local currency for a local wallet.
 */

/** The longest period the Overview answers, in days (a year, leap day included). */
export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_RANGE_MESSAGE = `Choose a period of at most ${ANALYTICS_MAX_DAYS} days.`;

export const AnalyticsQuery = z
  .object({
    /** the first day of the period (YYYY-MM-DD, in `timeZone`) */
    from: CalendarDate,
    /** the last day of the period, included */
    to: CalendarDate,
    wallet: FiatWalletChoice.default('all'),
    /** the zone whose days the period means (default UTC) */
    timeZone: TimeZoneName.default('UTC'),
  })
  .strict()
  .refine((q) => q.to >= q.from, { message: REVERSED_RANGE_MESSAGE, path: ['to'] })
  .refine((q) => daysBetween(q.from, q.to) <= ANALYTICS_MAX_DAYS, { message: ANALYTICS_RANGE_MESSAGE, path: ['to'] });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** How many calendar days [from, to] holds, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The calendar day `n` days after `day` (before, for a negative n). */
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The step of the Overview's charts: hours for one day, days up to a quarter, months beyond. */
export type AnalyticsBucket = 'hour' | 'day' | 'month';
export const bucketOf = (days: number): AnalyticsBucket => (days <= 1 ? 'hour' : days <= 92 ? 'day' : 'month');

/** The kinds of movement the volumes count, as the tables name them (each opens its tab). */
export const ANALYTICS_KINDS = ['collections', 'payments', 'settlements'] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

const groupStatuses = (...keys: string[]): readonly string[] => STATUS_GROUPS.filter((g) => keys.includes(g.key)).flatMap((g) => g.statuses);
/**
 * How a row ended, by the status groups of status-groups.ts: succeeded, or failed (failed, refunded, cancelled or
 * expired); any other status is still under way. The success rate is succeeded of those that ended; a figure opens
 * its table with these statuses as the status filter.
 */
export const OUTCOME_STATUSES = {
  succeeded: groupStatuses('succeeded'),
  failed: groupStatuses('failed', 'refunded', 'cancelled'),
} as const;

const Volume = z.object({ count: z.number().int(), amount: DecimalString });
export type Volume = z.infer<typeof Volume>;

/** Succeeded against finished (succeeded or failed): the success rate is succeeded / finished, none when nothing finished. */
const Success = z.object({ succeeded: z.number().int(), finished: z.number().int() });
export type Success = z.infer<typeof Success>;

const Breakdown = z.array(Success.extend({ key: z.string(), count: z.number().int(), amount: DecimalString }));

export const AnalyticsReply = z.object({
  /** the period as asked, and the one before it (same length; the previous calendar month for a whole month) */
  period: z.object({ from: CalendarDate, to: CalendarDate, previousFrom: CalendarDate, previousTo: CalendarDate, timeZone: z.string() }),
  bucket: z.enum(['hour', 'day', 'month']),
  currency: z.string(),
  /** per kind: the period's volume and the previous period's */
  totals: z.record(z.enum(ANALYTICS_KINDS), z.object({ current: Volume, previous: Volume })),
  /** one point per step, oldest first: `start` is the step's first instant, `day` its calendar day (the table link's) */
  series: z.array(
    z.object({
      start: z.string(),
      day: CalendarDate,
      volumes: z.record(z.enum(ANALYTICS_KINDS), Volume),
      /** collections and payments */
      success: Success,
    }),
  ),
  /** collections and payments of the period */
  success: Success.extend({
    byCountry: Breakdown,
    /** the payment method: bank_transfer or mobile_money */
    byChannel: Breakdown,
    byOperator: Breakdown,
    /** the failed ones' reasons, the most frequent first; one without a recorded reason is told by its status */
    failureReasons: z.array(z.object({ reason: z.string().nullable(), status: z.string().nullable(), count: z.number().int() })),
  }),
  /** the wallet's ledger balance at the end of each step, and what is reserved now */
  balance: z.object({
    currency: z.string(),
    points: z.array(z.object({ at: z.string(), balance: DecimalString })),
    current: DecimalString,
    pending: z.object({ withdrawals: DecimalString, disbursements: DecimalString }),
  }),
  /** from creation to completion, of those completed in the period: per type and corridor (country and channel) */
  completion: z.array(
    z.object({
      kind: z.enum(['collections', 'payments']),
      country: z.string(),
      channel: z.string(),
      count: z.number().int(),
      p50Seconds: z.number(),
      p95Seconds: z.number(),
    }),
  ),
});
export type AnalyticsReply = z.infer<typeof AnalyticsReply>;

/** Succeeded of finished, as a fraction from 0 to 1; undefined when nothing finished. */
export const successRate = (s: Success): number | undefined => (s.finished > 0 ? s.succeeded / s.finished : undefined);
