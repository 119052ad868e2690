import { z } from 'zod';

/**
 * Time zones as the portal uses them: one zone in force per user (UTC unless they chose their browser's), the
 * day bounds a date filter means in it, computed here with Intl so the browser, PGlite and PostgreSQL agree.
 */

/** Zone names already checked: making a formatter to check one costs about a millisecond, and screens ask often. */
const checked = new Map<string, boolean>();
const CHECKED_KEPT = 1000;

/** Whether the runtime's Intl knows an IANA zone name ("Africa/Nairobi", "UTC"). */
export function isKnownTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  // the default zone, known everywhere: no formatter (the first one made loads the zone data, ~20 ms on a phone)
  if (zone === 'UTC') return true;
  const known = checked.get(zone);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    ok = true;
  } catch {
    ok = false;
  }
  if (checked.size >= CHECKED_KEPT) checked.clear();
  checked.set(zone, ok);
  return ok;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (Nairobi: +3 h; New York: -5 h or -4 h). */
function offsetAt(instant: number, zone: string): number {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(zone, f);
  }
  const parts = f.formatToParts(new Date(instant));
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((x) => x.type === type)?.value ?? 0);
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC takes the years 0 to 99 for 1900 to 1999
  date.setUTCFullYear(n('year'), n('month') - 1, n('day'));
  const wall = date.getTime() + ((n('hour') * 60 + n('minute')) * 60 + n('second')) * 1000;
  return wall - Math.floor(instant / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/** A calendar day's midnight read as UTC, in milliseconds; every year from 0001 to 9999 (Date.UTC takes 1 for 1901). */
function wallOf(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`not a calendar day: ${day}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getTime();
}

/** The instant a wall-clock time of a zone is: two passes settle the offset of the instant itself, not of the wall time read as UTC. */
function instantOfWall(wall: number, zone: string): Date {
  if (zone === 'UTC') return new Date(wall);
  let guess = wall - offsetAt(wall, zone);
  guess = wall - offsetAt(guess, zone);
  return new Date(guess);
}

/**
 * The instant a calendar day (YYYY-MM-DD) begins in a zone: midnight there, DST-correct (a day that starts in a
 * gap begins at the first instant that exists).
 */
export function dayStartInZone(day: string, zone = 'UTC'): Date {
  return instantOfWall(wallOf(day), zone);
}

/** The half-open interval [start, end) a range of calendar days covers in a zone: end is the start of the day after endDay. */
export function dayRangeInZone(startDay: string, endDay: string, zone = 'UTC'): { from: Date; to: Date } {
  return { from: dayStartInZone(startDay, zone), to: instantOfWall(wallOf(endDay) + DAY_MS, zone) };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayInZone(instant: Date | number, zone = 'UTC'): string {
  const t = typeof instant === 'number' ? instant : instant.getTime();
  return new Date(t + offsetAt(t, zone)).toISOString().slice(0, 10);
}

export const TIME_ZONE_MESSAGE = 'Choose a time zone such as Africa/Nairobi or UTC.';
/** An IANA time zone the runtime knows. */
export const TimeZoneName = z.string().refine(isKnownTimeZone, { message: TIME_ZONE_MESSAGE });

/** An instant's wall-clock time in a zone as the files write it: 2026-11-16 01:44:12. */
export function wallTimeInZone(instant: Date | number, zone = 'UTC'): string {
  const t = typeof instant === 'number' ? instant : instant.getTime();
  return new Date(t + offsetAt(t, zone)).toISOString().slice(0, 19).replace('T', ' ');
}
