import { describe, expect, it } from 'vitest';
import { buildCsv, cleanRows, exportColumns, exportColumnsFor } from './export.ts';
import type { CollectionRow, FeeRow, InitiatedPaymentRow, PaymentRow } from '@portal/contract/transaction-rows';
import { TABS, emptyState, growOptions, settlementAmount, tabByIndex, tableLink } from './tables.ts';

const payment = (row: Partial<PaymentRow>): PaymentRow => ({
  id: '',
  createdAt: '',
  status: '',
  country: '',
  currency: '',
  amount: '',
  convertedAmount: '',
  rate: '',
  paymentMethod: '',
  requestSource: 'api',
  fiatWallet: null,
  sequenceId: '',
  sessionId: null,
  accountNumber: '',
  accountType: '',
  counterpartyName: '',
  ...row,
});
const collection = (row: Partial<CollectionRow>): CollectionRow => payment(row);
const fee = (row: Partial<FeeRow>): FeeRow => ({
  id: '',
  createdAt: '',
  transactionId: '',
  transactionType: '',
  paymentMethod: '',
  amountUsd: '',
  fiatWallet: null,
  ...row,
});
const initiated = (row: Partial<InitiatedPaymentRow>): InitiatedPaymentRow => ({
  id: '',
  createdAt: '',
  status: '',
  country: '',
  localCurrency: '',
  amount: '',
  amountUsd: '',
  paymentMethod: '',
  recipientName: '',
  accountNumber: '',
  reference: '',
  fiatWallet: null,
  ...row,
});
const settlement = { fiatWallet: null, fiatAmount: null, cryptoAmount: '', cryptoCurrency: '' };

describe('tabs', () => {
  it('are addressed by display index, payments = 1, unknown falls back to payments', () => {
    expect(TABS.map((t) => [t.index, t.key])).toEqual([
      [1, 'payments'],
      [2, 'collections'],
      [3, 'settlements'],
      [4, 'fees'],
      [5, 'all'],
    ]);
    expect(tabByIndex(3).key).toBe('settlements');
    expect(tabByIndex(5).key).toBe('all');
    expect(tabByIndex(9).key).toBe('payments');
    expect(tabByIndex('x').key).toBe('payments');
  });
  it("carry the spec's headers, with the wallet variants", () => {
    const headers = (i: number, w = false) =>
      tabByIndex(i)
        .columns(w)
        .map((c) => c.header);
    expect(headers(1)).toEqual(['ID', 'Date', 'Country', 'Amount', 'Status', 'Payment Method']);
    expect(headers(2)).toEqual(['ID', 'Date', 'Country', 'Amount', 'Status', 'Payment Method', 'Request Source']);
    expect(headers(3)).toEqual(['ID', 'Date', 'Transaction type', 'Amount', 'Status']);
    expect(headers(4)).toEqual(['ID', 'Date', 'Amount', 'Transaction Type', 'Payment Method']);
    expect(headers(1, true)).toEqual(['ID', 'Date', 'Country', 'Wallet', 'Amount', 'Status', 'Payment Method']);
    expect(headers(3, true)).toEqual(['ID', 'Date', 'Wallet', 'Transaction type', 'Amount', 'Status']);
    expect(headers(5)).toEqual(['ID', 'Date', 'Type', 'Country', 'Amount', 'Status']);
    expect(headers(5, true)).toEqual(['ID', 'Date', 'Type', 'Country', 'Wallet', 'Amount', 'Status']);
  });
  it('filter the combined tab by country, status, payment method, transaction type (starting empty) and request source', () => {
    const cats = tabByIndex(5).filters();
    expect(cats.map((c) => [c.key, c.name, c.options.length > 0])).toEqual([
      ['country', 'Country', true],
      ['status', 'Status', true],
      ['paymentMethod', 'Payment Method', true],
      ['transactionType', 'Transaction Type', false],
      ['requestSource', 'Request Source', true],
    ]);
  });
});

describe('empty states', () => {
  const base = { rows: 0, idFilter: '', anyFilter: false, hasDate: false };
  it('are mutually exclusive and cleared when rows exist', () => {
    expect(emptyState(base)).toBe('noData');
    expect(emptyState({ ...base, idFilter: 'ab12' })).toBe('noDataForId');
    expect(emptyState({ ...base, anyFilter: true })).toBe('noDataForFilter');
    expect(emptyState({ ...base, hasDate: true })).toBe('noDataForDate');
    expect(emptyState({ ...base, hasDate: true, idFilter: 'ab', anyFilter: true })).toBe('noDataForDate');
    expect(emptyState({ ...base, idFilter: 'ab', anyFilter: true })).toBe('noDataForId');
    expect(emptyState({ ...base, rows: 3, hasDate: true })).toBeNull();
  });
});

describe('filter options', () => {
  it('grow from loaded rows without duplicates, for payment method and transaction type only', () => {
    const cats = tabByIndex(4).filters();
    const grown = growOptions(cats, [
      fee({ transactionType: 'payout', paymentMethod: 'bank_transfer' }),
      fee({ transactionType: 'topup' }),
      fee({ transactionType: 'payout' }),
    ]);
    expect(grown.find((c) => c.key === 'transactionType')!.options).toEqual(['payout', 'topup']);
    expect(grown.find((c) => c.key === 'paymentMethod')!.options).toEqual(['BANK_TRANSFER', 'MOBILE_MONEY']);
    expect(growOptions(grown, [fee({ transactionType: 'payout' })])).toEqual(grown);
  });
});

describe('settlement amount', () => {
  it('shows the wallet currency with the fiat amount for a non-USD wallet, else the crypto amount', () => {
    expect(settlementAmount({ fiatWallet: 'NGN', fiatAmount: '1500000', cryptoAmount: '1000', cryptoCurrency: 'USDT' })).toBe('NGN 1,500,000.00');
    expect(settlementAmount({ ...settlement, fiatWallet: 'NGN' })).toBe('NGN 0.00');
    // stablecoins with 2 decimals in the table (the drawer shows the full value), bitcoin with up to 8
    expect(settlementAmount({ ...settlement, fiatWallet: 'USD', cryptoAmount: '12.3456789', cryptoCurrency: 'USDC' })).toBe('USDC 12.35');
    expect(settlementAmount({ ...settlement, cryptoAmount: '0.00123456', cryptoCurrency: 'BTC' })).toBe('BTC 0.00123456');
    expect(settlementAmount({ ...settlement, cryptoAmount: '5', cryptoCurrency: 'USDT' })).toBe('USDT 5.00');
  });
});

describe('export', () => {
  it("writes the contract's file column set: RFC 4180 CSV with a BOM, UTC times, plain amounts beside their currencies", () => {
    const csv = buildCsv(
      'payments',
      [
        payment({
          id: 'a',
          createdAt: '2026-01-02T03:04:05.000Z',
          country: 'NG',
          amount: '1500.5',
          currency: 'NGN',
          status: 'complete',
          paymentMethod: 'bank_transfer',
        }),
        payment({ id: 'b"c', country: 'K,E', status: 'failed' }),
      ],
      false,
    );
    expect(csv.startsWith('\uFEFFID,Created (UTC),Country,Amount,Currency,Status,Payment Method,')).toBe(true);
    expect(csv).toContain('\r\na,2026-01-02 03:04:05,NG,1500.50,NGN,Complete,Bank,');
    expect(csv).toContain('\r\n"b""c",,"K,E",,,Failed,');
    expect(
      exportColumns(1, true)
        .map((c) => c.header)
        .slice(0, 6),
    ).toEqual(['ID', 'Created (UTC)', 'Country', 'Wallet', 'Amount', 'Currency']);
  });
  it('neutralises text cells a spreadsheet would run as formulas, and keeps negative amounts numbers', () => {
    const csv = buildCsv(
      'initiate-payments',
      [
        initiated({
          id: '=1+2',
          createdAt: '2026-01-02T03:04:05.000Z',
          country: 'NG',
          recipientName: '=HYPERLINK("http://evil.example","Refund")',
          amount: '-12.50',
          localCurrency: 'NGN',
          status: 'complete',
          paymentMethod: 'bank_transfer',
        }),
        initiated({ id: 'b', recipientName: '@SUM(A1:A2)', amount: '-0.5', status: 'failed' }),
      ],
      false,
    );
    const [, first, second] = csv.split('\r\n');
    expect(first).toMatch(/^'=1\+2,2026-01-02 03:04:05,NG,"'=HYPERLINK\(""http:\/\/evil.example"",""Refund""\)",-12.50,NGN,Complete,Bank,/);
    expect(second).toMatch(/^b,,,'@SUM\(A1:A2\),-0.50,,Failed,/);
  });
  it("refuses an unknown tab with 'case for display index : {n} not implemented'", () => {
    expect(() => exportColumns(7, false)).toThrow('case for display index : 7 not implemented');
  });
});

describe('transaction-data §8 errors', () => {
  it('refuse an unknown table in cleaning and in export building', () => {
    expect(() => cleanRows('loans', [])).toThrow('cannot perform data cleaning for table : loans');
    expect(() => exportColumnsFor('loans', false)).toThrow('Unsupported transaction type loans');
    expect(() => buildCsv('loans', [], false)).toThrow('Unsupported transaction type loans');
    expect(
      exportColumnsFor('trades', false)
        .map((c) => c.header)
        .slice(0, 2),
    ).toEqual(['Created (UTC)', 'Trade ID']);
  });
  it('shows a missing request source as API', () => {
    const rows = cleanRows('collections', [collection({ id: 'a', requestSource: '' }), collection({ id: 'b', requestSource: 'widget' })]);
    expect(rows.map((r) => ('requestSource' in r ? r.requestSource : undefined))).toEqual(['api', 'widget']);
  });
});

describe('tableLink', () => {
  it('opens the screen of each table with the same id search', () => {
    expect(tableLink('collections', '3f2a9c1e')).toEqual({ label: 'Collections', to: '/transactions?tab=2&id=3f2a9c1e' });
    expect(tableLink('fees', 'ab')).toEqual({ label: 'Fees', to: '/transactions?tab=4&id=ab' });
    expect(tableLink('trades', 'TRD-5F41')).toEqual({ label: 'Trades', to: '/trades?id=TRD-5F41' });
    expect(tableLink('initiate-payments', '3f2a')).toEqual({ label: 'Initiated payments', to: '/payments?id=3f2a' });
  });
});
