import { dayInZone } from '@portal/contract/time-zone';
import { addDays } from '@portal/contract/analytics';

/**
 * The Overview's controls as the address holds them (a reload keeps them, a link shares them): `period` (last 30 days
 * when absent), `month` (YYYY-MM, for a calendar month), `from` and `to` (YYYY-MM-DD, for a custom period) and
 * `wallet` (all wallets when absent). Days are days in the user's zone in force.
 */
export const OVERVIEW_KEYS = { period: 'period', month: 'month', from: 'from', to: 'to', wallet: 'wallet' } as const;

export const PERIODS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = '30d';

/** How many months the month choice goes back, this one included: two years. */
export const MONTHS_BACK = 24;

export type Controls = { period: Period; month: string; from: string; to: string; wallet: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-\d{2}$/;

/** The last day of a month (YYYY-MM). */
export function monthEnd(month: string): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return addDays(d.toISOString().slice(0, 10), -1);
}

/** Today in a zone: the day every period counts back from. */
export const todayIn = (zone: string, now = Date.now()) => dayInZone(now, zone);

/** The months the month choice offers, newest first: this month (of `day`) and the ones before it. */
export function recentMonths(day: string, count = MONTHS_BACK): string[] {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(year, month - 1 - i, 1));
    return d.toISOString().slice(0, 7);
  });
}

/** The controls an address holds; what it lacks or holds wrong is the default. */
export function readControls(params: URLSearchParams, day: string): Controls {
  const period = (PERIODS as readonly string[]).includes(params.get(OVERVIEW_KEYS.period) ?? '')
    ? (params.get(OVERVIEW_KEYS.period) as Period)
    : DEFAULT_PERIOD;
  const month = params.get(OVERVIEW_KEYS.month) ?? '';
  const from = params.get(OVERVIEW_KEYS.from) ?? '';
  const to = params.get(OVERVIEW_KEYS.to) ?? '';
  return {
    period,
    month: MONTH.test(month) && month <= day.slice(0, 7) ? month : day.slice(0, 7),
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    wallet: params.get(OVERVIEW_KEYS.wallet) || 'all',
  };
}

/**
 * The days of the period the controls choose (`day` is today in the user's zone): today, the last 7 or 30 days
 * (today included), a calendar month (this one up to today), or the custom days as typed (empty when not given).
 */
export function periodDays(c: Controls, day: string): { from: string; to: string } {
  switch (c.period) {
    case 'today':
      return { from: day, to: day };
    case '7d':
      return { from: addDays(day, -6), to: day };
    case '30d':
      return { from: addDays(day, -29), to: day };
    case 'month': {
      const end = monthEnd(c.month);
      return { from: `${c.month}-01`, to: end < day ? end : day };
    }
    case 'custom':
      return { from: c.from, to: c.to };
  }
}
