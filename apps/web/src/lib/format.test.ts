import { afterEach, describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatCount,
  formatCrypto,
  formatCurrency,
  formatDate,
  formatDay,
  formatDayMonth,
  formatDayRange,
  formatHour,
  formatMoney,
  formatMonth,
  formatPercent,
  formatNumber,
  formatRate,
  setDisplayTimeZone,
  paymentMethodLabel,
  requestSourceLabel,
  statusLabel,
  titleCase,
  transactionTypeLabel,
} from './format.ts';
import { setLanguage } from './i18n.ts';

/** One test a case: `write` given the case's arguments writes the case's text. */
function itWrites<A extends unknown[]>(title: string, write: (...args: A) => string, cases: [args: A, written: string][]) {
  it.each(cases)(`${title}: %j`, (args, written) => {
    expect(write(...args)).toBe(written);
  });
}

describe('formatting (transaction-data §5, §9)', () => {
  itWrites('money: en-US, 2 decimals, exact from decimal strings, non-numeric characters stripped', formatMoney, [
    [['25000'], '25,000.00'],
    [['1234567.125', 'USD'], 'USD 1,234,567.13'],
    [['$ 1,000.5'], '1,000.50'],
    [['90071992547409931.10'], '90,071,992,547,409,931.10'],
    [['abc'], '0.00'],
  ]);
  itWrites('currency: empty for zero or non-numeric', formatCurrency, [
    [['0', 'USD'], ''],
    [['x', 'USD'], ''],
    [['12.5', 'NGN'], 'NGN 12.50'],
  ]);
  itWrites('number: 0.00 for falsy, up to 2 decimals', formatNumber, [
    [[null], '0.00'],
    [[''], '0.00'],
    [[0], '0.00'],
    [['1234.5678'], '1,234.57'],
    [['7'], '7'],
  ]);
  itWrites('crypto: 2 to 8 decimals', formatCrypto, [
    [['1'], '1.00'],
    [['0.123456789', 'USDT'], 'USDT 0.12345679'],
  ]);
  itWrites('dates: one format, in UTC with the zone written, whatever the time zone of the browser', formatDate, [
    [['2026-11-22T19:12:00Z'], 'Nov 22, 2026, 19:12 UTC'],
    // 01:44 in Nairobi on the 16th is 22:44 UTC on the 15th: the UTC day the date filter searches
    [['2026-11-15T22:44:00.000Z'], 'Nov 15, 2026, 22:44 UTC'],
    [['2026-01-05T00:05:00Z'], 'Jan 5, 2026, 00:05 UTC'],
    [['nonsense'], ''],
  ]);
  itWrites('days: the calendar day of a date, or the UTC day of an instant', formatDay, [
    [['2026-11-16'], 'Nov 16, 2026'],
    [['2026-11-15T23:59:59Z'], 'Nov 15, 2026'],
  ]);
  it('dates in UTC are written as the en-US formatters write them, for any instant (written without them)', () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const intlDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
    // every month, day and hour over several years, and odd minutes, leap days and the ends of years included
    const instants = [
      Date.UTC(2024, 1, 29, 23, 59),
      Date.UTC(1999, 11, 31, 0, 0),
      Date.UTC(2000, 0, 1, 12, 7),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59),
    ];
    for (let t = Date.UTC(2019, 0, 1); t < Date.UTC(2031, 0, 1); t += 7 * 3600_000 + 13 * 60_000) instants.push(t);
    for (const t of instants) {
      const d = new Date(t);
      expect(formatDate(d)).toBe(`${intl.format(d)} UTC`);
      expect(formatDay(d)).toBe(intlDay.format(d));
    }
    // years of other lengths go through Intl
    expect(formatDate('0999-03-04T05:06:00Z')).toBe(`${intl.format(new Date('0999-03-04T05:06:00Z'))} UTC`);
  });
  itWrites('amounts: fiat and stablecoins with 2 decimals in tables, bitcoin up to 8, the currency always written', formatAmount, [
    [['7957', 'USDC'], 'USDC 7,957.00'],
    [['8054.62731366', 'USDT'], 'USDT 8,054.63'],
    [['0.00012345', 'BTC'], 'BTC 0.00012345'],
    [['13927538', 'KES'], 'KES 13,927,538.00'],
  ]);
  itWrites('rates: "1 USDC = 26.24 ZMW", never the 12 decimals of the database', formatRate, [
    [['26.235000000000', 'USDC', 'ZMW'], '1 USDC = 26.24 ZMW'],
    [['2650.000000000000', 'USD', 'TZS'], '1 USD = 2,650.00 TZS'],
    [['0.999500000000', 'USDT', 'USD'], '1 USDT = 0.9995 USD'],
    [['x', 'USD', 'NGN'], ''],
  ]);
  const LABELS = { titleCase, statusLabel, paymentMethodLabel, transactionTypeLabel, requestSourceLabel };
  it.each<[label: keyof typeof LABELS, value: string | undefined, written: string]>([
    ['titleCase', 'pending_approval', 'Pending Approval'],
    ['titleCase', 'COMPLETE', 'Complete'],
    ['statusLabel', 'pending_kyc', 'Pending KYC'],
    ['statusLabel', 'hash_confirmation_received', 'Hash Confirmation Received'],
    ['paymentMethodLabel', 'bank_transfer', 'Bank'],
    ['paymentMethodLabel', 'MOBILE_MONEY', 'Momo'],
    ['paymentMethodLabel', 'momo', 'Mobile Money'],
    ['paymentMethodLabel', 'eft', 'Bank Transfer'],
    ['transactionTypeLabel', 'payout', 'Pay out'],
    ['transactionTypeLabel', 'topup', 'Top up'],
    ['requestSourceLabel', undefined, 'API'],
    ['requestSourceLabel', 'Api', 'API'],
    ['requestSourceLabel', 'widget', 'Widget'],
  ])('labels: statuses in title case, methods, types and sources: %s(%j)', (label, value, written) => {
    expect(LABELS[label](value)).toBe(written);
  });
});

describe('amounts written by hand, as Intl writes them', () => {
  // the independent oracle: Intl's own en-US formatter (exact on numeric strings), at every precision the portal uses
  const oracle = (text: string, min: number, max: number) =>
    new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max }).format(text as unknown as number);
  // each formatter of amounts, and what Intl writes for it
  const FORMATTERS: [string, (text: string) => string, (text: string) => string][] = [
    ['formatMoney', (t) => formatMoney(t), (t) => oracle(t, 2, 2)],
    ['formatNumber', (t) => formatNumber(t), (t) => oracle(t, 0, 2)],
    ['formatCrypto', (t) => formatCrypto(t), (t) => oracle(t, 2, 8)],
    ['formatRate', (t) => formatRate(t, 'A', 'B'), (t) => `1 A = ${Math.abs(Number(t)) >= 1 ? oracle(t, 2, 2) : oracle(t, 2, 6)} B`],
    ['formatCount', (t) => formatCount(Number(t)), (t) => oracle(String(Number(t)), 0, 0)],
  ];
  // a seeded generator: the same cases on every run
  let seed = 20261127;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(next() * 10))).join('');
  const cases = [
    '0',
    '-0',
    '0.005',
    '-0.005',
    '0.004',
    '0.995',
    '9.995',
    '999.995',
    '-999.995',
    '999999.5',
    '0.5',
    '1.5',
    '2.5',
    '.5',
    '5.',
    '00012.30',
    '1234567890123456789012.345',
    '99999999.999999995',
    '0.000000005',
    '0.000000004',
    '-0.001',
    '1000',
    '1000000.10',
  ];
  for (let i = 0; i < 400; i += 1) {
    const sign = next() < 0.2 ? '-' : '';
    const whole = digits(1 + Math.floor(next() * 14));
    const frac = next() < 0.15 ? '' : `.${digits(Math.floor(next() * 12))}`;
    cases.push(`${sign}${whole}${frac}`);
  }

  it('matches Intl on plain decimals at every precision the portal uses (money, numbers, crypto, rates, counts)', () => {
    const wrong: string[] = [];
    for (const text of cases)
      for (const [name, ours, intl] of FORMATTERS) {
        if (ours(text) !== intl(text)) wrong.push(`${name}(${text}): ${ours(text)} instead of ${intl(text)}`);
      }
    expect(wrong).toEqual([]);
  });

  it('writes what the screens show', () => {
    expect(formatMoney('1234567.895', 'USD')).toBe('USD 1,234,567.90');
    expect(formatCrypto('0.123456789', 'USDT')).toBe('USDT 0.12345679');
    expect(formatNumber('999.999')).toBe('1,000');
    expect(formatCount(10000)).toBe('10,000');
  });
});

describe('one time zone for every time shown', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = browserZone;
    setDisplayTimeZone(null);
  });

  it('is UTC with the zone written whatever the browser zone', () => {
    process.env.TZ = 'Africa/Nairobi';
    expect(formatDate('2026-11-15T22:30:00Z')).toBe('Nov 15, 2026, 22:30 UTC');
    expect(formatDay('2026-11-15T22:30:00Z')).toBe('Nov 15, 2026');
    expect(formatDay('2026-11-16')).toBe('Nov 16, 2026');
    expect(formatDayRange('2026-10-24', '2026-11-23')).toBe('Oct 24 – Nov 23, 2026');
  });

  it('follows the zone the user chose, naming it (daylight saving included)', () => {
    process.env.TZ = 'Asia/Tokyo';
    setDisplayTimeZone('Africa/Nairobi');
    expect(formatDate('2026-11-15T22:30:00Z')).toBe('Nov 16, 2026, 01:30 GMT+3');
    expect(formatDay('2026-11-15T22:30:00Z')).toBe('Nov 16, 2026');
    expect(formatDay('2026-11-16')).toBe('Nov 16, 2026'); // a calendar day stays that day
    setDisplayTimeZone('America/New_York');
    expect(formatDate('2026-07-01T12:00:00Z')).toBe('Jul 1, 2026, 08:00 EDT');
    expect(formatDate('2026-12-01T12:00:00Z')).toBe('Dec 1, 2026, 07:00 EST');
    setDisplayTimeZone('Not/AZone');
    expect(formatDate('2026-11-15T22:30:00Z')).toBe('Nov 15, 2026, 22:30 UTC');
  });
});

describe("the Overview's steps and shares", () => {
  afterEach(async () => {
    setDisplayTimeZone(null);
    await setLanguage('en');
  });

  it('writes a day, a month and an hour of the zone in force, short or in full, in the language in force', async () => {
    expect(formatDayMonth('2026-11-16')).toBe('Nov 16');
    expect(formatMonth('2026-11-16')).toBe('Nov 2026');
    expect(formatMonth('2026-11', { long: true })).toBe('November 2026');
    setDisplayTimeZone('Asia/Kathmandu');
    expect(formatHour('2026-11-15T22:15:00Z')).toBe('04:00');
    await setLanguage('fr');
    expect(formatDayMonth('2026-11-16')).toBe('16 nov.');
    expect(formatMonth('2026-11', { long: true })).toBe('novembre 2026');
  });

  it('writes a share as a percentage: a point in English, a comma and a narrow no-break space in French', async () => {
    expect(formatPercent(0.92149)).toBe('92.1%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(0.5, 0)).toBe('50%');
    await setLanguage('fr');
    expect(formatPercent(0.92149)).toBe('92,1\u202f%');
  });
});
