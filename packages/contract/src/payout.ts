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

/** A stored manual type clears every schedule field (portal-core §4); fields that do not apply are cleared too. */
export function normalisePayoutConfig(c: PayoutConfig): PayoutConfig {
  if (c.type === 'MANUAL') return { ...MANUAL_PAYOUT };
  return {
    ...c,
    // an automated schedule repeats every 1 period unless it says otherwise
    repeatFrequency: c.repeatFrequency ?? 1,
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

const UNITS: Record<NonNullable<PayoutConfig['frequency']>, string> = { Daily: 'day', Weekly: 'week', Monthly: 'month', Yearly: 'year' };

/** The unit of the repeat frequency: "week", "weeks". */
export const repeatUnit = (frequency: NonNullable<PayoutConfig['frequency']>, count: number) => `${UNITS[frequency]}${count === 1 ? '' : 's'}`;

/**
 * The whole repeat line: "Weekly: Monday, Thursday", "Daily", and with a repeat frequency above 1
 * "Every 2 weeks: Monday, Thursday".
 */
export function repeatLine(c: PayoutConfig): string {
  if (!c.frequency) return '';
  const every = c.repeatFrequency ?? 1;
  const head = every > 1 ? `Every ${every} ${repeatUnit(c.frequency, every)}` : c.frequency;
  return [head, repeatSummary(c)].filter(Boolean).join(': ');
}

/**
 * End summary: 'After N Payouts', 'Never', or 'On {date}'. (The spec writes 'never' in lower case; shown beside
 * 'Weekly: ...' it reads as a slip, so the portal writes every summary with a capital.)
 */
export function endSummary(c: PayoutConfig): string {
  switch (c.endPayout) {
    case 'After Payouts':
      return `After ${c.endPayoutAfter ?? ''} Payouts`;
    case 'On':
      return `On ${c.endPayoutDate ?? ''}`;
    case 'Never':
      return 'Never';
    default:
      return '';
  }
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (y: number, m0: number, d: number) => new Date(Date.UTC(y, m0, d));
const DAY_MS = 86_400_000;
const dayAfter = (d: Date) => utcDay(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
const addDays = (d: Date, n: number) => utcDay(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n);
/** Monday of the week of a day */
const weekStart = (d: Date) => addDays(d, -((d.getUTCDay() + 6) % 7));
const monthIndex = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
/** The monthly payout day in a month (29-31 fall back to the month's last day). */
const monthlyDay = (c: PayoutConfig, index: number) => {
  const y = Math.floor(index / 12);
  const m0 = index % 12;
  return utcDay(y, m0, Math.min(c.monthlyDate!, daysInMonth(y, m0 + 1)));
};

/**
 * The first payout date on or after `start` with a repeat of 1: daily the day itself; weekly the first chosen
 * weekday; monthly the date (29-31 falling back to a shorter month's last day); yearly the date, 29 February waiting
 * for a leap year.
 */
function firstOnOrAfter(c: PayoutConfig, start: Date): Date | undefined {
  switch (c.frequency) {
    case 'Daily':
      return start;
    case 'Weekly':
      for (let i = 0; i < 7; i++) {
        const d = addDays(start, i);
        if (c.weeklyDays.includes(WEEK_DAYS[(d.getUTCDay() + 6) % 7]!)) return d;
      }
      return undefined;
    case 'Monthly':
      for (let i = 0; i < 2; i++) {
        const d = monthlyDay(c, monthIndex(start) + i);
        if (d >= start) return d;
      }
      return undefined;
    case 'Yearly':
      for (let i = 0; i < 5; i++) {
        const y = start.getUTCFullYear() + i;
        const { month, day } = c.yearlyDate!;
        if (day > daysInMonth(y, month)) continue;
        const d = utcDay(y, month - 1, day);
        if (d >= start) return d;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The first payout date strictly after `from` (a UTC day), or null for manual payouts or a schedule that ended by
 * date. Monthly dates 29-31 fall back to the month's last day. With a repeat frequency of N, payouts happen every
 * N days, weeks, months or years counted from the first payout after `since` (the day the schedule was saved;
 * without it, `from`: what the schedule would do if saved now). (A count-limited end is not known here: it needs
 * the payouts made so far.)
 */
export function nextPayoutDate(c: PayoutConfig, from: Date, since: Date = from): string | null {
  if (c.type === 'MANUAL' || payoutConfigProblem(c)) return null;
  const start = dayAfter(utcDay(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  const every = Math.max(1, c.repeatFrequency ?? 1);
  const first = firstOnOrAfter(c, dayAfter(utcDay(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate())));
  let next: Date | undefined;
  if (every === 1 || !first || first >= start) {
    next = every === 1 || !first ? firstOnOrAfter(c, start) : first;
  } else {
    switch (c.frequency) {
      case 'Daily': {
        const k = Math.ceil((start.getTime() - first.getTime()) / DAY_MS / every);
        next = addDays(first, k * every);
        break;
      }
      case 'Weekly': {
        const week0 = weekStart(first);
        const weeks = Math.floor((weekStart(start).getTime() - week0.getTime()) / (7 * DAY_MS));
        for (let k = Math.floor(weeks / every); k <= Math.floor(weeks / every) + 1 && !next; k++) {
          const monday = addDays(week0, k * every * 7);
          for (let i = 0; i < 7 && !next; i++) {
            const d = addDays(monday, i);
            if (d >= start && c.weeklyDays.includes(WEEK_DAYS[i]!)) next = d;
          }
        }
        break;
      }
      case 'Monthly': {
        const m0 = monthIndex(first);
        const k0 = Math.floor((monthIndex(start) - m0) / every);
        for (let k = k0; k <= k0 + 1 && !next; k++) {
          const d = monthlyDay(c, m0 + k * every);
          if (d >= start) next = d;
        }
        break;
      }
      case 'Yearly': {
        const y0 = first.getUTCFullYear();
        const { month, day } = c.yearlyDate!;
        const k0 = Math.floor((start.getUTCFullYear() - y0) / every);
        // 29 February is skipped in the years without one
        for (let k = k0; k <= k0 + 8 && !next; k++) {
          const y = y0 + k * every;
          if (day > daysInMonth(y, month)) continue;
          const d = utcDay(y, month - 1, day);
          if (d >= start) next = d;
        }
        break;
      }
    }
  }
  if (!next) return null;
  if (c.endPayout === 'On' && c.endPayoutDate && iso(next) > c.endPayoutDate) return null;
  return iso(next);
}

/** The value is checked by the service (`lowBalanceLimitProblem`), so that every bad value gets the spec's message. */
export const LowBalanceLimitRequest = z.object({
  lowBalanceLimit: z
    .union([z.string().max(40), z.number()])
    .optional()
    .nullable(),
});
export const LowBalanceLimitResponse = z.object({ lowBalanceLimit: z.string() });
export const LOW_BALANCE_MESSAGE = 'Invalid low balance limit value';
export const DEFAULT_LOW_BALANCE_LIMIT = '1000';

/** The limit as a person types it: thousands separators and spaces are taken out ("1,000.50" is 1000.50). */
export const normaliseLowBalanceLimit = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value).replace(/[\s,]/g, '');

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
