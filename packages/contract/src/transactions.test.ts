import { describe, expect, it } from 'vitest';
import { ROW_SCHEMAS } from './transaction-rows.ts';
import { CreateReportRequest, SEARCH_TABLES, ScrollRequest, ScrollResponse, SearchRequest, SearchResponse, cleanIdFilter, idMatch } from './transactions.ts';

describe('id search', () => {
  it('keeps hex digits and hyphens only', () => {
    expect(cleanIdFilter(' ab#cd-12 zz!')).toBe('abcd-12');
  });
  it('matches a prefix under 9 characters, the first 8 up to 35, and the whole id from 36', () => {
    expect(idMatch('')).toEqual({ kind: 'none' });
    expect(idMatch('xyz')).toEqual({ kind: 'none' });
    expect(idMatch('AB12')).toEqual({ kind: 'prefix', prefix: 'ab12' });
    expect(idMatch('ab12cd34')).toEqual({ kind: 'prefix', prefix: 'ab12cd34' });
    expect(idMatch('ab12cd34-')).toEqual({ kind: 'prefix', prefix: 'ab12cd34' });
    expect(idMatch('ab12cd34-99ff')).toEqual({ kind: 'prefix', prefix: 'ab12cd34' });
    expect(idMatch('EE71ABF0-841C-CCB4-1A00-5DC15672C842')).toEqual({ kind: 'exact', id: 'ee71abf0-841c-ccb4-1a00-5dc15672c842' });
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
    const parsed = SearchResponse.parse({ table: 'payments', data: [{ ...payment, partnerId: '0a5e0000-0000-4000-8000-0000000001ea', secret: 'x' }], total: 1, totalRelation: 'eq' });
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
    expect(CreateReportRequest.safeParse({ dataSource: 'payments', startDate: '2026-01-01', endDate: '2026-01-31', filters: { status: '\udc00' } }).success).toBe(false);
    expect(CreateReportRequest.safeParse({ dataSource: 'payments', startDate: '2024-02-29', endDate: '2024-03-31', filters: { status: 'complete' } }).success).toBe(true);
  });
});
