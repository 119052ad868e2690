import { ACTIVE_REPORT_STATUSES, type ReportJob } from '@portal/contract/transactions';
import { formatDate, formatDayRange } from '../../lib/format.ts';
import { translator } from '../../lib/i18n.ts';
import { reportsMessages } from './messages.ts';

/**
 * A report's period as calendar days, the way the search reads them: "Oct 24 – Nov 23, 2026" (one day alone:
 * "Nov 23, 2026").
 */
export const periodText = (startDate: string, endDate: string): string => formatDayRange(startDate, endDate);

/** "in 23 h 5 min", "in 12 min", "in less than a minute" (in the language in force). */
function timeLeft(ms: number): string {
  const t = translator(reportsMessages);
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('expiry.lessThanMinute');
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return t('expiry.minutes', { minutes: m });
  return m ? t('expiry.hoursMinutes', { hours: h, minutes: m }) : t('expiry.hours', { hours: h });
}

/**
 * When a report's file stops being downloadable: the time for a ready file (and how long is left), when it went for
 * an expired one, and for a report still being built that it will be kept 24 hours once ready.
 */
export function expiryText(job: Pick<ReportJob, 'status' | 'expiresAt'>, now: number): { main: string; sub?: string } {
  const t = translator(reportsMessages);
  if (job.status === 'complete' && job.expiresAt) return { main: formatDate(job.expiresAt), sub: timeLeft(Date.parse(job.expiresAt) - now) };
  if (job.status === 'expired') return job.expiresAt ? { main: t('expiry.expired'), sub: formatDate(job.expiresAt) } : { main: t('expiry.expired') };
  if (ACTIVE_REPORT_STATUSES.includes(job.status)) return { main: t('expiry.afterReady') };
  return { main: '—' };
}
