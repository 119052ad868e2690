import { type PayoutConfig } from '@portal/contract/payout';
import { formatDay } from '../../../lib/format.ts';
import type { SettingsKey, SettingsT } from '../messages.ts';

// The payout schedule in words, in the language in force: the contract holds the stored values (Weekly, Monday,
// After Payouts) and English summaries of them; the screen writes its own through its catalogue.

type Frequency = NonNullable<PayoutConfig['frequency']>;

/** A month of the year by its number (1 is January). */
export const monthName = (t: SettingsT, month: number) => t(`payout.months.${month}` as SettingsKey);

/** A day of the month as a date writes it ("1er" in French). */
const dayOfMonth = (t: SettingsT, day: number) => t('payout.summary.day', { count: day });

/** The unit after "Repeat every [N]": "week", "weeks". */
export const repeatUnit = (t: SettingsT, frequency: Frequency, count: number) => t(`payout.units.${frequency}`, { count });

/** What the frequency picks: the days of a week, the date of a month, the day of a year; nothing for daily. */
function repeatDetail(t: SettingsT, c: PayoutConfig): string {
  switch (c.frequency) {
    case 'Weekly':
      return c.weeklyDays.map((d) => t(`payout.days.${d}`)).join(', ');
    case 'Monthly':
      return c.monthlyDate ? t('payout.summary.monthly', { day: dayOfMonth(t, c.monthlyDate) }) : '';
    case 'Yearly':
      return c.yearlyDate ? t('payout.summary.yearly', { month: monthName(t, c.yearlyDate.month), day: dayOfMonth(t, c.yearlyDate.day) }) : '';
    default:
      return '';
  }
}

/** The whole repeat line: "Weekly: Monday, Thursday", "Daily", "Every 2 weeks: Monday, Thursday"; empty without a frequency. */
export function repeatLine(t: SettingsT, c: PayoutConfig): string {
  if (!c.frequency) return '';
  const every = c.repeatFrequency ?? 1;
  const head = every > 1 ? t(`payout.summary.every.${c.frequency}`, { count: every }) : t(`payout.frequencies.${c.frequency}`);
  const detail = repeatDetail(t, c);
  return detail ? t('payout.summary.line', { head, detail }) : head;
}

/** When the schedule ends: "After 6 Payouts", "On Dec 31, 2026", "Never"; empty while the draft lacks it. */
export function endLine(t: SettingsT, c: PayoutConfig): string {
  switch (c.endPayout) {
    case 'After Payouts':
      return c.endPayoutAfter ? t('payout.summary.after', { count: c.endPayoutAfter }) : '';
    case 'On':
      return c.endPayoutDate ? t('payout.summary.on', { date: formatDay(c.endPayoutDate) || c.endPayoutDate }) : '';
    case 'Never':
      return t('payout.summary.never');
    default:
      return '';
  }
}

/** The schedule in one line: how often, until when ("Weekly: Monday, Thursday, ends After 6 Payouts"). */
export function scheduleText(t: SettingsT, c: PayoutConfig): string {
  const repeat = repeatLine(t, c);
  const end = endLine(t, c);
  return repeat && end ? t('payout.summary.withEnd', { repeat, end }) : repeat || end;
}
