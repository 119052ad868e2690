import type { AnalyticsBucket } from '@portal/contract/analytics';
import { formatDay, formatDayMonth, formatHour, formatMonth, formatPercent } from '../../lib/format.ts';
import { currentLanguage, translator } from '../../lib/i18n.ts';
import { overviewMessages } from './messages.ts';

/**
 * A duration as people say it, rounded to what matters at its size: "45 s", "4 min", "2 h 10 min", "1 d 3 h" (in
 * French "1 j 3 h").
 */
export function formatDuration(seconds: number): string {
  const t = translator(overviewMessages);
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('duration.seconds', { count: s });
  const minutes = Math.round(s / 60);
  if (minutes < 60) return t('duration.minutes', { count: minutes });
  const totalHours = Math.round(s / 3600);
  if (s < 86_400 - 30) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? t('duration.hoursMinutes', { hours, minutes: rest }) : t('duration.hours', { hours });
  }
  const days = Math.floor(totalHours / 24);
  const hours = totalHours % 24;
  return hours ? t('duration.daysHours', { days, hours }) : t('duration.days', { days });
}

/** How a figure moved against the previous period's: up or down by a share of it, the same, new, or none in either. */
export type Change = { kind: 'up' | 'down'; share: number } | { kind: 'same' | 'new' | 'nothing' };

export function changeOf(current: number, previous: number): Change {
  if (previous === 0) return current === 0 ? { kind: 'nothing' } : { kind: 'new' };
  const share = (current - previous) / Math.abs(previous);
  // what rounds to 0.0% is no change
  if (Math.abs(share) < 0.0005) return { kind: 'same' };
  return { kind: share > 0 ? 'up' : 'down', share: Math.abs(share) };
}

/** The change in words: "Up 12.3%", "Down 4.0%", "No change", "New this period". */
export function changeText(change: Change): string {
  const t = translator(overviewMessages);
  if (change.kind === 'up' || change.kind === 'down') return t(`change.${change.kind}`, { change: formatPercent(change.share) });
  return t(`change.${change.kind}`);
}

const LOCALES = { en: 'en-US', fr: 'fr-FR' } as const;
const compactFormats = new Map<string, Intl.NumberFormat>();
/** A chart axis' number, short: 1.2K, 3.4M (1,2 k, 3,4 M in French). */
export function formatCompact(value: number): string {
  const language = currentLanguage();
  let f = compactFormats.get(language);
  if (!f) compactFormats.set(language, (f = new Intl.NumberFormat(LOCALES[language], { notation: 'compact', maximumFractionDigits: 1 })));
  return f.format(value);
}

/** A step of the charts, short (an axis' tick): "14:00", "Nov 16", "Nov 2026". */
export function stepTick(bucket: AnalyticsBucket, step: { start: string; day: string }): string {
  if (bucket === 'hour') return formatHour(step.start);
  if (bucket === 'day') return formatDayMonth(step.day);
  return formatMonth(step.day);
}

/** A step of the charts in full (a table's row): "Nov 16, 2026, 14:00", "Nov 16, 2026", "November 2026". */
export function stepName(bucket: AnalyticsBucket, step: { start: string; day: string }): string {
  if (bucket === 'hour') return `${formatDay(step.day)}, ${formatHour(step.start)}`;
  if (bucket === 'day') return formatDay(step.day);
  return formatMonth(step.day, { long: true });
}
