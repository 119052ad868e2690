const numeric = (value: string | number | null | undefined) => (typeof value === 'number' ? String(value) : (value ?? '').replace(/[^\d.-]/g, ''));
const isNumber = (text: string) => text !== '' && text !== '-' && !Number.isNaN(Number(text));
// Intl formats a numeric string exactly (ES2023): no float rounding on the way
const fmt = (text: string, min: number, max: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max }).format(text as unknown as number);

/** Money in en-US with 2 decimals; non-numeric characters of a string are stripped first (transaction-data §5). */
export function formatMoney(amount: string | number | null | undefined, currency?: string): string {
  const text = numeric(amount);
  const formatted = fmt(isNumber(text) ? text : '0', 2, 2);
  return currency ? `${currency} ${formatted}` : formatted;
}

/** The currency formatter: an empty string for zero or non-numeric input. */
export function formatCurrency(amount: string | number | null | undefined, currency: string): string {
  const text = numeric(amount);
  if (!isNumber(text) || Number(text) === 0) return '';
  return `${currency} ${fmt(text, 2, 2)}`;
}

/** The number formatter: 0.00 for a falsy value, else up to 2 decimals. */
export function formatNumber(value: string | number | null | undefined): string {
  if (!value || !isNumber(numeric(value))) return '0.00';
  return fmt(numeric(value), 0, 2);
}

/** Crypto amounts: 2 to 8 decimals. */
export function formatCrypto(amount: string | number | null | undefined, coin?: string): string {
  const text = numeric(amount);
  const formatted = fmt(isNumber(text) ? text : '0', 2, 8);
  return coin ? `${coin} ${formatted}` : formatted;
}

/**
 * One date format everywhere (tables, details, settings, reports), in UTC with the zone written:
 * "Nov 16, 2026, 01:44 UTC". UTC because the date filters search UTC days (transaction-data §5): a row shown on a
 * day is found by a filter on that day, whatever the browser's time zone.
 */
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });

export function formatDate(iso: string | Date | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${DATE_TIME.format(d)} UTC`;
}

/** A calendar day (YYYY-MM-DD, or the UTC day of an instant) in the same style: "Nov 16, 2026". */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : day);
  return Number.isNaN(d.getTime()) ? '' : DAY.format(d);
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

// the words of stored values, shared with the files the server writes (one definition: a file says what the screen says)
export { paymentMethodLabel, requestSourceLabel, statusLabel, titleCase, transactionTypeLabel } from '@portal/contract/labels';
