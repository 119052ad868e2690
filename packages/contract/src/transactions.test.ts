import { describe, expect, it } from 'vitest';
import { ROW_SCHEMAS } from './transaction-rows.ts';
import {
  CreateReportRequest,
  SEARCH_TABLES,
  ScrollRequest,
  ScrollResponse,
  SearchRequest,
  SearchResponse,
  idSearchMessage,
  parseIdSearch,
} from './transactions.ts';

describe('id search by the id the table shows', () => {
  const uuid = (table: Parameters<typeof parseIdSearch>[0], text: string) => parseIdSearch(table, text);
  it.each<[table: Parameters<typeof parseIdSearch>[0], text: string, hex: string]>([
    ['payments', 'AB12', 'ab12'],
    ['payments', ' ab12cd34- ', 'ab12cd34'],
    ['fees', 'ab12cd34-99ff', 'ab12cd3499ff'],
    ['collections', 'ab12cd3499ff', 'ab12cd3499ff'],
    ['settlements', 'EE71ABF0-841C-CCB4-1A00-5DC15672C842', 'ee71abf0841cccb41a005dc15672c842'],
    ['initiate-payments', 'ee71abf0841cccb41a005dc15672c842', 'ee71abf0841cccb41a005dc15672c842'],
    // an id the table cut short, copied with its ellipsis
    ['payments', 'ee71abf0…', 'ee71abf0'],
    ['payments', 'ee71abf0-841c...', 'ee71abf0841c'],
  ])('finds a uuid by its first digits, with or without its hyphens, in any case, trimmed: %s %j', (table, text, hex) => {
    expect(uuid(table, text)).toEqual({ ok: true, search: { kind: 'uuid', hex } });
  });
  it.each(['', '   '])('searches nothing for empty text: %j', (text) => {
    expect(uuid('payments', text)).toEqual({ ok: true, search: { kind: 'none' } });
  });
  it('refuses text that cannot be the start of such an id, with one message, instead of searching what is left of it', () => {
    const refused = { ok: false, message: idSearchMessage('payments') };
    for (const text of [
      'hello world!',
      'xyz',
      'ab 12',
      'ab12-cd34',
      'id: ab12',
      'ab12cd34--',
      'f'.repeat(33),
      `${'f'.repeat(36)}`,
      'ee71abf0-841c-ccb4-1a00-5dc15672c8421',
      'TRD-5F41110478',
      '😀',
      '-',
    ]) {
      expect(uuid('payments', text), text).toEqual(refused);
    }
    expect(idSearchMessage('payments')).toBe('Enter an ID as the table shows it, or its first characters: digits, letters a to f and hyphens, like 3f2a9c1e.');
  });
  it('finds a trade by its trade id as shown, without TRD-, in any case, or by its first characters; a whole uuid too', () => {
    for (const text of ['TRD-5F41110478', 'trd-5f41110478', '5F41110478', ' 5f41110478 ', 'TRD5F41110478']) {
      expect(parseIdSearch('trades', text), text).toEqual({ ok: true, search: { kind: 'tradeId', prefix: 'TRD-5F41110478' } });
    }
    expect(parseIdSearch('trades', 'TRD-5F4')).toEqual({ ok: true, search: { kind: 'tradeId', prefix: 'TRD-5F4' } });
    expect(parseIdSearch('trades', '5f4')).toEqual({ ok: true, search: { kind: 'tradeId', prefix: 'TRD-5F4' } });
    expect(parseIdSearch('trades', 'TRD-')).toEqual({ ok: true, search: { kind: 'tradeId', prefix: 'TRD-' } });
    expect(parseIdSearch('trades', 'tr')).toEqual({ ok: true, search: { kind: 'tradeId', prefix: 'TRD-' } });
    expect(parseIdSearch('trades', 'EE71ABF0-841C-CCB4-1A00-5DC15672C842')).toEqual({
      ok: true,
      search: { kind: 'uuid', hex: 'ee71abf0841cccb41a005dc15672c842' },
    });
    const refused = { ok: false, message: idSearchMessage('trades') };
    for (const text of ['hello world!', 'TRD-5F41110478A', 'TRD-XYZ', 'TRX-5F41', 'ee71abf0-841c', '5F41110478AB', 'TRD 5F41']) {
      expect(parseIdSearch('trades', text), text).toEqual(refused);
    }
    expect(idSearchMessage('trades')).toBe('Enter a trade ID as the table shows it, or its first characters, like TRD-5F41110478.');
  });
});

describe('search request', () => {
  it('caps the window at 10,000 and the page at 6,000', () => {
    expect(SearchRequest.safeParse({ table: 'payments', startIndex: 9990, size: 10 }).success).toBe(true);
    expect(SearchRequest.safeParse({ table: 'payments', startIndex: 9991, size: 10 }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', size: 6001 }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'nope' }).success).toBe(false);
  });
  it('refuses a partnerId in the body', () => {
    const r = SearchRequest.safeParse({ table: 'payments', partnerId: '0a5e0000-0000-4000-8000-0000000001ea' });
    expect(r.success).toBe(false);
  });
});

describe('typed replies', () => {
  const payment = {
    id: 'ee71abf0-841c-ccb4-1a00-5dc15672c842',
    createdAt: '2026-01-02T03:04:05.000Z',
    status: 'complete',
    country: 'NG',
    currency: 'NGN',
    amount: '1500.50000000',
    convertedAmount: '1.00000000',
    rate: '1500.500000000000',
    paymentMethod: 'bank_transfer',
    requestSource: 'api',
    fiatWallet: null,
    sequenceId: 'SEQ-1',
    sessionId: null,
    accountNumber: '0123456789',
    accountType: 'bank',
    counterpartyName: 'Ada',
  };
  it('strip what a client must not see: partnerId never goes out', () => {
    const parsed = SearchResponse.parse({
      table: 'payments',
      data: [{ ...payment, partnerId: '0a5e0000-0000-4000-8000-0000000001ea', secret: 'x' }],
      total: 1,
      totalRelation: 'eq',
    });
    expect(parsed.data[0]).toEqual(payment);
    expect(parsed.data[0]).not.toHaveProperty('partnerId');
  });
  it('follow the row schema of the table that was asked for', () => {
    expect(SearchResponse.safeParse({ table: 'payments', data: [payment], total: 1, totalRelation: 'eq' }).success).toBe(true);
    // a payment row is not a fee row
    expect(SearchResponse.safeParse({ table: 'fees', data: [payment], total: 1, totalRelation: 'eq' }).success).toBe(false);
    expect(ScrollResponse.safeParse({ table: 'collections', scrollId: null, hits: [payment] }).success).toBe(true);
    expect(ScrollResponse.safeParse({ table: 'trades', scrollId: null, hits: [payment] }).success).toBe(false);
    // money is a decimal string, never a float
    expect(SearchResponse.safeParse({ table: 'payments', data: [{ ...payment, amount: 1500.5 }], total: 1, totalRelation: 'eq' }).success).toBe(false);
  });
  it('cover every search table', () => {
    expect(Object.keys(ROW_SCHEMAS).sort()).toEqual([...SEARCH_TABLES].sort());
  });
});

describe('request texts and dates', () => {
  it('refuse NUL and lone surrogates in filters, id search, wallet and scroll id; impossible dates in ranges and reports', () => {
    expect(SearchRequest.safeParse({ table: 'payments', filters: { status: 'a\u0000' } }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', fiatWallet: '\ud800' }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', idFilter: '\u0000' }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', filters: { unknown: 'x' } }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', range: { startDate: '2026-02-30', endDate: '2026-03-01' } }).success).toBe(false);
    expect(SearchRequest.safeParse({ table: 'payments', range: { startDate: '', endDate: '2026-03-01' } }).success).toBe(true);
    expect(ScrollRequest.safeParse({ table: 'payments', scrollId: 'a.\u0000' }).success).toBe(false);
    expect(CreateReportRequest.safeParse({ dataSource: 'payments', startDate: '0000-01-01', endDate: '2026-01-01' }).success).toBe(false);
    expect(
      CreateReportRequest.safeParse({ dataSource: 'payments', startDate: '2026-01-01', endDate: '2026-01-31', filters: { status: '\udc00' } }).success,
    ).toBe(false);
    expect(
      CreateReportRequest.safeParse({ dataSource: 'payments', startDate: '2024-02-29', endDate: '2024-03-31', filters: { status: 'complete' } }).success,
    ).toBe(true);
  });
});
