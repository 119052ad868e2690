import { dayInZone, dayRangeInZone } from '@portal/contract/time-zone';
import { displayTimeZone } from '../../lib/format.ts';

/** The expiry choices of the create dialog and the instant each means. */
export type ExpiryChoice = 'never' | '30d' | '90d' | '1y' | 'date';

// in the order the dialog offers them; each is worded where it is drawn (`expiry.<choice>` in the catalogue)
export const expiryChoices: readonly ExpiryChoice[] = ['never', '30d', '90d', '1y', 'date'];

const DAY = 86_400_000;

/**
 * The ISO instant a choice means, from `now`: a number of days from now, or the end of the chosen day in the
 * time zone the portal shows (UTC unless the user chose their browser's) (the key works through that whole day). Undefined for never, and for a date that is not after
 * today.
 */
export function expiryFrom(choice: ExpiryChoice, date: string, now = Date.now()): string | undefined {
  if (choice === 'never') return undefined;
  if (choice === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!m) return undefined;
    const zone = displayTimeZone();
    const end = new Date(dayRangeInZone(date, date, zone).to.getTime() - 1);
    return end.getTime() > now && dayInZone(now, zone) !== date ? end.toISOString() : undefined;
  }
  const days = { '30d': 30, '90d': 90, '1y': 365 }[choice];
  return new Date(now + days * DAY).toISOString();
}
