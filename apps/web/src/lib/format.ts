import { CHANNEL_TYPE_LABELS, PAYMENT_METHOD_LABELS, TRANSACTION_TYPE_LABELS } from '@portal/contract/domain';

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

/** The long 'LLL' date format: "November 22, 2026 7:12 PM" (local time). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const date = d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  const time = d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  return `${date} ${time}`;
}

/** Statuses in title case: pending_approval → Pending Approval. */
export const titleCase = (value: string | null | undefined) =>
  (value ?? '').replace(/[_-]+/g, ' ').trim().replace(/\w\S*/g, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());

/** Payment methods and channel types as labels (transaction-data §9). */
export function paymentMethodLabel(value: string | null | undefined): string {
  if (!value) return '';
  const upper = value.toUpperCase() as keyof typeof PAYMENT_METHOD_LABELS;
  return PAYMENT_METHOD_LABELS[upper] ?? CHANNEL_TYPE_LABELS[value.toLowerCase()] ?? titleCase(value);
}

export const transactionTypeLabel = (value: string | null | undefined) =>
  TRANSACTION_TYPE_LABELS[(value ?? '').toLowerCase() as keyof typeof TRANSACTION_TYPE_LABELS] ?? titleCase(value);

/** A missing request source shows as API; any value reading api shows as API. */
export const requestSourceLabel = (value: string | null | undefined) => (!value || value.toLowerCase() === 'api' ? 'API' : titleCase(value));
