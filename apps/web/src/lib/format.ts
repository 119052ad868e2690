import { isKnownTimeZone } from '@portal/contract/time-zone';
import { localDecimal, utcDayAndTime, withCurrency as writtenWithCurrency } from '@portal/contract/written';
import { currentLanguage } from './i18n.ts';

const numeric = (value: string | number | null | undefined) => (typeof value === 'number' ? String(value) : (value ?? '').replace(/[^\d.-]/g, ''));
const isNumber = (text: string) => text !== '' && text !== '-' && !Number.isNaN(Number(text));
// Intl formats a numeric string exactly (ES2023): no float rounding on the way. One formatter per precision: making
// one costs far more than using it. It is only the fallback for text that is not a plain decimal (see `fmt`).
const numberFormats = new Map<string, Intl.NumberFormat>();
const LOCALES = { en: 'en-US', fr: 'fr-FR' } as const;
const intlFmt = (text: string, min: number, max: number) => {
  const language = currentLanguage();
  const key = `${language}-${min}-${max}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(LOCALES[language], { minimumFractionDigits: min, maximumFractionDigits: max })));
  return f.format(text as unknown as number);
};

const PLAIN_DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

/** Adds one to the last digit of a string of digits, carrying ("199" -> "200", "99" -> "100"). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i -= 1) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/**
 * A decimal string as the language in force writes it, exactly as `Intl.NumberFormat('en-US' | 'fr-FR', {
 * minimumFractionDigits: min, maximumFractionDigits: max })` does (thousands grouped by commas, or narrow no-break
 * spaces in French with a decimal comma; rounded half away from zero to `max` decimals, trailing zeros down to
 * `min`): written out by hand because the first number format a page makes loads the
 * browser's number data, tens of milliseconds on a phone, inside the first render of a screen that shows amounts.
 * Text that is not a plain decimal goes to Intl as before.
 */
const fmt = (text: string, min: number, max: number): string => {
  const m = PLAIN_DECIMAL.exec(text);
  if (!m || (m[2] === '' && !m[3])) return intlFmt(text, min, max);
  let int = m[2]!.replace(/^0+(?=\d)/, '') || '0';
  let frac = m[3] ?? '';
  if (frac.length > max) {
    const up = frac[max]! >= '5';
    frac = frac.slice(0, max);
    if (up) {
      const all = increment(int + frac);
      int = all.slice(0, all.length - frac.length);
      frac = all.slice(all.length - frac.length);
    }
  }
  frac = frac.replace(/0+$/, '').padEnd(min, '0');
  return localDecimal(`${m[1]}${int}${frac ? `.${frac}` : ''}`, currentLanguage());
};

/** A count: 10,000 in English, 10 000 in French (what `toLocaleString` writes, without loading the browser's number data). */
export function formatCount(n: number): string {
  return fmt(String(n), 0, 0);
}

/** An amount with its currency as the language writes it: "USD 1,234.56" in English, "1 234,56 USD" in French. */
const withCurrency = (formatted: string, currency: string | undefined) => (currency ? writtenWithCurrency(formatted, currency, currentLanguage()) : formatted);

/** Money taken or given with its sign before the currency: "−USD 1.25" (and "+USD 1.25" when `plus`). */
export function formatSignedMoney(amount: string, currency: string, { plus = false } = {}): string {
  if (amount.startsWith('-')) return `−${formatMoney(amount.slice(1), currency)}`;
  return `${plus ? '+' : ''}${formatMoney(amount, currency)}`;
}

/** Money with 2 decimals; non-numeric characters of a string are stripped first (transaction-data §5). */
export function formatMoney(amount: string | number | null | undefined, currency?: string): string {
  const text = numeric(amount);
  return withCurrency(fmt(isNumber(text) ? text : '0', 2, 2), currency);
}

/** The currency formatter: an empty string for zero or non-numeric input. */
export function formatCurrency(amount: string | number | null | undefined, currency: string): string {
  const text = numeric(amount);
  if (!isNumber(text) || Number(text) === 0) return '';
  return withCurrency(fmt(text, 2, 2), currency);
}

/** The number formatter: 0.00 for a falsy value, else up to 2 decimals. */
export function formatNumber(value: string | number | null | undefined): string {
  if (!value || !isNumber(numeric(value))) return '0.00';
  return fmt(numeric(value), 0, 2);
}

/** Crypto amounts: 2 to 8 decimals. */
export function formatCrypto(amount: string | number | null | undefined, coin?: string): string {
  const text = numeric(amount);
  return withCurrency(fmt(isNumber(text) ? text : '0', 2, 8), coin);
}

/**
 * One date format everywhere (tables, details, settings, api keys, reports), in one time zone with the zone written:
 * "Nov 16, 2026, 01:44 UTC". UTC by default because the date filters search UTC days (transaction-data §5): a row
 * shown on a day is found by a filter on that day, whatever the browser's time zone. The zone in force is set once
 * (setDisplayTimeZone) and every display reads it; nothing formats a time with the browser's own zone.
 */
let displayZone = 'UTC';
const formatters = new Map<string, { dateTime: Intl.DateTimeFormat; day: Intl.DateTimeFormat; zoneName: Intl.DateTimeFormat }>();

function formattersFor(timeZone: string) {
  const language = currentLanguage();
  const key = `${language} ${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    const locale = LOCALES[language];
    found = {
      dateTime: new Intl.DateTimeFormat(locale, {
        timeZone,
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
      day: new Intl.DateTimeFormat(locale, { timeZone, month: 'short', day: 'numeric', year: 'numeric' }),
      zoneName: new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }),
    };
    formatters.set(key, found);
  }
  return found;
}

/** The zone every time display uses; an unknown zone falls back to UTC. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  displayZone = zone && isKnownTimeZone(zone) ? zone : 'UTC';
}

export const displayTimeZone = (): string => displayZone;

/** How a time names its zone: "UTC", else the short name at that instant ("GMT+3", "EST", "EDT"). */
function zoneLabel(d: Date, timeZone: string): string {
  if (timeZone === 'UTC') return 'UTC';
  return (
    formattersFor(timeZone)
      .zoneName.formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone
  );
}

/**
 * A UTC day ("Nov 16, 2026", "16 nov. 2026") and time ("01:44") as the en-US and fr-FR formatters write them, without them: the zone in force
 * by default needs no zone data, whose loading (with the first date formatter made) costs ~20 ms on a phone as a
 * table first draws. Years of four digits only; Intl writes the others.
 */
function utcParts(d: Date): { day: string; time: string } | undefined {
  const year = d.getUTCFullYear();
  if (year < 1000 || year > 9999) return undefined;
  return utcDayAndTime(d, currentLanguage());
}

export function formatDate(iso: string | Date | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const utc = displayZone === 'UTC' ? utcParts(d) : undefined;
  if (utc) return `${utc.day}, ${utc.time} UTC`;
  return `${formattersFor(displayZone).dateTime.format(d)} ${zoneLabel(d, displayZone)}`;
}

/**
 * A calendar day in the same style: "Nov 16, 2026". A YYYY-MM-DD day is that day; an instant is its day in the
 * zone in force.
 */
export function formatDay(day: string | Date | null | undefined): string {
  if (!day) return '';
  const calendar = typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day);
  const d = new Date(calendar ? `${day}T00:00:00Z` : day);
  if (Number.isNaN(d.getTime())) return '';
  const zone = calendar ? 'UTC' : displayZone;
  return (zone === 'UTC' ? utcParts(d)?.day : undefined) ?? formattersFor(zone).day.format(d);
}

/** A range of calendar days (YYYY-MM-DD): "Oct 24 – Nov 23, 2026", one day alone "Nov 23, 2026". */
export function formatDayRange(startDay: string, endDay: string): string {
  const start = new Date(`${startDay}T00:00:00Z`);
  const end = new Date(`${endDay}T00:00:00Z`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return `${startDay} – ${endDay}`;
  const days = formattersFor('UTC').day;
  // Intl puts thin spaces around the dash; plain ones read the same and copy as typed
  return startDay === endDay ? days.format(start) : days.formatRange(start, end).replace(/\s*–\s*/, ' – ');
}

/** The day and month of a calendar day (YYYY-MM-DD), short: "Nov 16" ("16 nov."). */
export function formatDayMonth(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : intlDate('UTC', { month: 'short', day: 'numeric' }).format(d);
}

/** The month of a calendar day (YYYY-MM-DD or YYYY-MM): "Nov 2026" ("nov. 2026"), or in full "November 2026" ("novembre 2026"). */
export function formatMonth(day: string, { long = false } = {}): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : intlDate('UTC', { month: long ? 'long' : 'short', year: 'numeric' }).format(d);
}

/** The hour of an instant in the zone in force: "14:00". */
export function formatHour(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return intlDate(displayZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}

/** A fraction as a percentage with `decimals` places: "92.4%" in English, "92,4 %" in French (a narrow no-break space). */
export function formatPercent(fraction: number, decimals = 1): string {
  const text = fmt((fraction * 100).toFixed(decimals), decimals, decimals);
  return currentLanguage() === 'fr' ? `${text}\u202f%` : `${text}%`;
}

/** One date formatter per language, zone and set of options (making one costs far more than using it). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function intlDate(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const language = currentLanguage();
  const key = `${language} ${timeZone} ${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(LOCALES[language], { timeZone, ...options })));
  return f;
}

/**
 * An amount as a table shows it: fiat and stablecoins with 2 decimals, other crypto (BTC) with up to 8; the
 * currency always written. The details drawer shows the full value with formatCrypto.
 */
export function formatAmount(amount: string | number | null | undefined, currency: string | null | undefined): string {
  const code = (currency ?? '').toUpperCase();
  return code === 'BTC' ? formatCrypto(amount, code) : formatMoney(amount, code);
}

/**
 * A rate as people read it: "1 USD = 2,650.00 TZS". Rates of 1 or more get 2 decimals, smaller ones up to 6
 * significant places (0.9995): never the 12 decimals the database keeps.
 */
export function formatRate(rate: string | number | null | undefined, base: string, quote: string): string {
  const text = numeric(rate);
  if (!isNumber(text)) return '';
  const formatted = Math.abs(Number(text)) >= 1 ? fmt(text, 2, 2) : fmt(text, 2, 6);
  return `1 ${base} = ${formatted} ${quote}`;
}

// the words of stored values in the language in force: the English ones are the contract's, shared with the files the
// server writes (one definition: a file says what the screen says)
export { paymentMethodLabel, requestSourceLabel, statusLabel, titleCase, transactionTypeLabel } from './labels.ts';
