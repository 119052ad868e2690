/** Money in en-US with 2 decimals, from a decimal string (never through a float's rounding). */
export function formatMoney(amount: string | number, currency?: string): string {
  const text = typeof amount === 'number' ? String(amount) : amount.replace(/[^\d.-]/g, '');
  const value = text === '' || text === '-' ? '0' : text;
  const nf = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // Intl formats a numeric string exactly (ES2023); the cast is for older lib typings
  const formatted = nf.format(value as unknown as number);
  return currency ? `${currency} ${formatted}` : formatted;
}
