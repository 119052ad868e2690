import { AnalyticsQuery } from '@portal/contract/analytics';
import { localizeMessage } from '../../lib/i18n.ts';
import { periodDays, type Controls } from './period.ts';

/**
 * The query of the controls (GET partner/analytics), or why there is none: both days of a custom period are needed,
 * and a reversed or too long period is refused with the contract's own message, in the language in force, before
 * anything is sent.
 */
export function analyticsQuery(
  c: Controls,
  day: string,
  timeZone: string,
): { query: AnalyticsQuery; invalid?: undefined } | { query?: undefined; invalid: string | null } {
  const { from, to } = periodDays(c, day);
  if (!from || !to) return { invalid: null };
  const parsed = AnalyticsQuery.safeParse({ from, to, wallet: c.wallet, timeZone });
  if (!parsed.success) return { invalid: localizeMessage(parsed.error.issues[0]?.message ?? '') };
  return { query: parsed.data };
}
