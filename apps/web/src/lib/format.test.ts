import { describe, expect, it } from 'vitest';
import { formatCrypto, formatCurrency, formatDate, formatMoney, formatNumber, paymentMethodLabel, requestSourceLabel, titleCase, transactionTypeLabel } from './format.ts';

describe('formatting (transaction-data §5, §9)', () => {
  it('money: en-US, 2 decimals, exact from decimal strings, non-numeric characters stripped', () => {
    expect(formatMoney('25000')).toBe('25,000.00');
    expect(formatMoney('1234567.125', 'USD')).toBe('USD 1,234,567.13');
    expect(formatMoney('$ 1,000.5')).toBe('1,000.50');
    expect(formatMoney('90071992547409931.10')).toBe('90,071,992,547,409,931.10');
    expect(formatMoney('abc')).toBe('0.00');
  });
  it('currency: empty for zero or non-numeric', () => {
    expect(formatCurrency('0', 'USD')).toBe('');
    expect(formatCurrency('x', 'USD')).toBe('');
    expect(formatCurrency('12.5', 'NGN')).toBe('NGN 12.50');
  });
  it('number: 0.00 for falsy, up to 2 decimals', () => {
    expect(formatNumber(null)).toBe('0.00');
    expect(formatNumber('')).toBe('0.00');
    expect(formatNumber(0)).toBe('0.00');
    expect(formatNumber('1234.5678')).toBe('1,234.57');
    expect(formatNumber('7')).toBe('7');
  });
  it('crypto: 2 to 8 decimals', () => {
    expect(formatCrypto('1')).toBe('1.00');
    expect(formatCrypto('0.123456789', 'USDT')).toBe('USDT 0.12345679');
  });
  it("dates in the long 'LLL' form", () => {
    expect(formatDate('2026-11-22T19:12:00Z')).toMatch(/^November 2[23], 2026 \d{1,2}:\d{2} (AM|PM)$/);
    expect(formatDate('nonsense')).toBe('');
  });
  it('labels: statuses in title case, methods, types and sources', () => {
    expect(titleCase('pending_approval')).toBe('Pending Approval');
    expect(titleCase('COMPLETE')).toBe('Complete');
    expect(paymentMethodLabel('bank_transfer')).toBe('Bank');
    expect(paymentMethodLabel('MOBILE_MONEY')).toBe('Momo');
    expect(paymentMethodLabel('momo')).toBe('Mobile Money');
    expect(paymentMethodLabel('eft')).toBe('Bank Transfer');
    expect(transactionTypeLabel('payout')).toBe('Pay out');
    expect(transactionTypeLabel('topup')).toBe('Top up');
    expect(requestSourceLabel(undefined)).toBe('API');
    expect(requestSourceLabel('Api')).toBe('API');
    expect(requestSourceLabel('widget')).toBe('Widget');
  });
});
