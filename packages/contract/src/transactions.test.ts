import { describe, expect, it } from 'vitest';
import { SearchRequest, cleanIdFilter, idMatch } from './transactions.ts';

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
