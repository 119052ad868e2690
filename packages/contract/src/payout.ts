import { z } from 'zod';
import { CalendarDate } from './validation.ts';

export const PAYOUT_TYPES = ['MANUAL', 'AUTOMATED'] as const;
export const PAYOUT_FREQUENCIES = ['Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
export const END_PAYOUTS = ['Never', 'On', 'After Payouts'] as const;
export const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/** Payout config of portal-core §3. Schedule fields are null when they do not apply. */
export const PayoutConfig = z.object({
  type: z.enum(PAYOUT_TYPES),
  frequency: z.enum(PAYOUT_FREQUENCIES).nullable(),
  repeatFrequency: z.number().int().min(1).max(365).nullable(),
  weeklyDays: z.array(z.enum(WEEK_DAYS)),
  monthlyDate: z.number().int().min(1).max(31).nullable(),
  yearlyDate: z.object({ month: z.number().int().min(1).max(12), day: z.number().int().min(1).max(31) }).nullable(),
  endPayout: z.enum(END_PAYOUTS).nullable(),
  endPayoutAfter: z.number().int().min(1).max(10_000).nullable(),
  endPayoutDate: CalendarDate.nullable(),
});
export type PayoutConfig = z.infer<typeof PayoutConfig>;

export const PayoutConfigResponse = z.object({ config: PayoutConfig, nextPayoutDate: z.string().nullable() });
export type PayoutConfigResponse = z.infer<typeof PayoutConfigResponse>;

export const MANUAL_PAYOUT: PayoutConfig = {
  type: 'MANUAL',
  frequency: null,
  repeatFrequency: null,
  weeklyDays: [],
  monthlyDate: null,
  yearlyDate: null,
  endPayout: null,
  endPayoutAfter: null,
  endPayoutDate: null,
};

const daysInMonth = (year: number, month1: number) => new Date(Date.UTC(year, month1, 0)).getUTCDate();

/**
 * The rules of portal-core §4: the message of the first broken one, or undefined when the config may be saved.
 * Daily is always fine; weekly needs a day; monthly a date; yearly a month and day; end 'After Payouts' a count
 * and 'On' a date; a missing frequency or end rule is refused.
 */
export function payoutConfigProblem(c: PayoutConfig): string | undefined {
  if (c.type === 'MANUAL') return undefined;
  if (!c.frequency) return 'Choose how often payouts happen.';
  if (c.frequency === 'Weekly' && c.weeklyDays.length === 0) return 'A weekly schedule needs at least one day.';
  if (c.frequency === 'Monthly' && !c.monthlyDate) return 'A monthly schedule needs a date of the month.';
  if (c.frequency === 'Yearly') {
    if (!c.yearlyDate) return 'A yearly schedule needs a month and a day.';
    if (c.yearlyDate.day > daysInMonth(2024, c.yearlyDate.month)) return `${MONTHS[c.yearlyDate.month - 1]} has no day ${c.yearlyDate.day}.`;
  }
  if (!c.endPayout) return 'Choose when payouts end.';
  if (c.endPayout === 'After Payouts' && !c.endPayoutAfter) return 'Say after how many payouts the schedule ends.';
  if (c.endPayout === 'On' && !c.endPayoutDate) return 'Choose the date on which payouts end.';
  return undefined;
}

/** A stored manual type clears every schedule field (portal-core §4). */
export function normalisePayoutConfig(c: PayoutConfig): PayoutConfig {
  if (c.type === 'MANUAL') return { ...MANUAL_PAYOUT };
  return {
    ...c,
    weeklyDays: c.frequency === 'Weekly' ? WEEK_DAYS.filter((d) => c.weeklyDays.includes(d)) : [],
    monthlyDate: c.frequency === 'Monthly' ? c.monthlyDate : null,
    yearlyDate: c.frequency === 'Yearly' ? c.yearlyDate : null,
    endPayoutAfter: c.endPayout === 'After Payouts' ? c.endPayoutAfter : null,
    endPayoutDate: c.endPayout === 'On' ? c.endPayoutDate : null,
  };
}

/** Repeat summary: daily shows nothing; weekly the days comma-joined; monthly the date; yearly month then day. */
export function repeatSummary(c: PayoutConfig): string {
  switch (c.frequency) {
    case 'Weekly':
      return c.weeklyDays.join(', ');
    case 'Monthly':
      return c.monthlyDate ? String(c.monthlyDate) : '';
    case 'Yearly':
      return c.yearlyDate ? `${MONTHS[c.yearlyDate.month - 1]} ${c.yearlyDate.day}` : '';
    default:
      return '';
  }
}

/** End summary: 'After N Payouts', 'never', or 'On {date}'. */
export function endSummary(c: PayoutConfig): string {
  switch (c.endPayout) {
    case 'After Payouts':
      return `After ${c.endPayoutAfter ?? ''} Payouts`;
    case 'On':
      return `On ${c.endPayoutDate ?? ''}`;
    case 'Never':
      return 'never';
    default:
      return '';
  }
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (y: number, m0: number, d: number) => new Date(Date.UTC(y, m0, d));

/**
 * The first payout date strictly after `from` (a UTC day), or null for manual payouts or a schedule that ended by
 * date. Monthly dates 29-31 fall back to the month's last day. (A count-limited end is not known here: it needs the
 * payouts made so far.)
 */
export function nextPayoutDate(c: PayoutConfig, from: Date): string | null {
  if (c.type === 'MANUAL' || payoutConfigProblem(c)) return null;
  const start = utcDay(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1);
  let next: Date | undefined;
  switch (c.frequency) {
    case 'Daily':
      next = start;
      break;
    case 'Weekly': {
      for (let i = 0; i < 7 && !next; i++) {
        const d = utcDay(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + i);
        if (c.weeklyDays.includes(WEEK_DAYS[(d.getUTCDay() + 6) % 7]!)) next = d;
      }
      break;
    }
    case 'Monthly': {
      for (let i = 0; i < 2 && !next; i++) {
        const y = start.getUTCFullYear();
        const m0 = start.getUTCMonth() + i;
        const day = Math.min(c.monthlyDate!, daysInMonth(y + Math.floor(m0 / 12), (m0 % 12) + 1));
        const d = utcDay(y, m0, day);
        if (d >= start) next = d;
      }
      break;
    }
    case 'Yearly': {
      for (let i = 0; i < 5 && !next; i++) {
        const y = start.getUTCFullYear() + i;
        const { month, day } = c.yearlyDate!;
        if (day > daysInMonth(y, month)) continue; // 29 February waits for a leap year
        const d = utcDay(y, month - 1, day);
        if (d >= start) next = d;
      }
      break;
    }
    default:
      return null;
  }
  if (!next) return null;
  if (c.endPayout === 'On' && c.endPayoutDate && iso(next) > c.endPayoutDate) return null;
  return iso(next);
}

/** The value is checked by the service (`lowBalanceLimitProblem`), so that every bad value gets the spec's message. */
export const LowBalanceLimitRequest = z.object({ lowBalanceLimit: z.union([z.string().max(40), z.number()]).optional().nullable() });
export const LowBalanceLimitResponse = z.object({ lowBalanceLimit: z.string() });
export const LOW_BALANCE_MESSAGE = 'Invalid low balance limit value';
export const DEFAULT_LOW_BALANCE_LIMIT = '1000';

/** The limit as a person types it: thousands separators and spaces are taken out ("1,000.50" is 1000.50). */
export const normaliseLowBalanceLimit = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value).replace(/[\s,]/g, ''));

/**
 * Why a low-balance limit cannot be saved, or undefined when it can: an amount in USD above zero with at most 2
 * decimals (cents) and at most 15 digits before the point. Every message starts with the spec's 'Invalid low balance
 * limit value' (portal-core §5) and says what to change.
 */
export function lowBalanceLimitProblem(value: string | number | null | undefined): string | undefined {
  const text = normaliseLowBalanceLimit(value);
  if (text === '') return `${LOW_BALANCE_MESSAGE}: enter an amount in USD.`;
  if (/^-\d*(\.\d*)?$/.test(text)) return `${LOW_BALANCE_MESSAGE}: the limit must be above zero.`;
  if (!/^\d*(\.\d*)?$/.test(text) || !/\d/.test(text)) return `${LOW_BALANCE_MESSAGE}: enter a number, like 1000 or 2500.50.`;
  const [whole = '', fraction = ''] = text.split('.');
  if (fraction.length > 2) return `${LOW_BALANCE_MESSAGE}: use at most 2 decimals (cents).`;
  if (!/[1-9]/.test(text)) return `${LOW_BALANCE_MESSAGE}: the limit must be above zero.`;
  if (whole.replace(/^0+/, '').length > 15) return `${LOW_BALANCE_MESSAGE}: the limit is too large.`;
  return undefined;
}

/** The low-balance form of the portal: the same rule as the server's, before anything is sent. */
export const LowBalanceLimitForm = z.object({
  lowBalanceLimit: z
    .string()
    .superRefine((value, ctx) => {
      const problem = lowBalanceLimitProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => {
      const [whole = '', fraction] = normaliseLowBalanceLimit(value).split('.');
      return `${whole.replace(/^0+(?=\d)/, '') || '0'}${fraction ? `.${fraction}` : ''}`;
    }),
});
export type LowBalanceLimitFormInput = z.input<typeof LowBalanceLimitForm>;
