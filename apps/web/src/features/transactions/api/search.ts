import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MAX_EXPORT_ROWS,
  MAX_PAGE_SIZE,
  MAX_SCROLL_SIZE,
  LocateResponse,
  ScrollResponse,
  SearchResponse,
  type SearchAnchor,
  type SearchQuery,
} from '@portal/contract/transactions';
import { api } from '../../../lib/api-client.ts';
import type { Row } from '../tables.ts';
import { liveQueries, MONEY_TOPICS } from '../../../lib/live-events.ts';

export const PAGE_SIZE = 10;
// a change of a payment, collection or settlement refetches the pages on screen
liveQueries(MONEY_TOPICS, ['transactions']);

/**
 * A page of the search. The keyset anchor (a row of the page the user came from, with its position) lets the server
 * read a deep page from that row; it is a hint, not part of the page's identity, so it stays out of the query key.
 */
export function useTransactionPage(query: SearchQuery, startIndex: number, anchor?: SearchAnchor, enabled = true) {
  return useQuery({
    // a query that cannot be searched (a reversed range, text that is no id) is not sent: nothing shows for it
    enabled,
    queryKey: ['transactions', query, startIndex],
    queryFn: () =>
      api.post('transactions/search', { ...query, startIndex, size: PAGE_SIZE, ...(anchor && { anchor }) }, { schema: SearchResponse, read: true }),
    // the previous page stays on screen while the next loads: no layout shift
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/**
 * Every row of the query for an export (transaction-data §7), typed by the contract's row schemas: one request when
 * the total is 6,000 or fewer, else scroll batches of 2,500 while hits come and fewer than 10,000 are collected.
 */
export async function fetchAll(query: SearchQuery, total: number, onProgress: (loaded: number, of: number) => void): Promise<Row[]> {
  try {
    const target = Math.min(total, MAX_EXPORT_ROWS);
    if (total <= MAX_PAGE_SIZE) {
      if (total === 0) return [];
      const res = await api.post('transactions/search', { ...query, startIndex: 0, size: total }, { schema: SearchResponse, read: true });
      onProgress(res.data.length, target);
      return res.data;
    }
    const rows: Row[] = [];
    let res = await api.post('transactions/scroll', { ...query, scrollSize: MAX_SCROLL_SIZE }, { schema: ScrollResponse, read: true });
    for (;;) {
      rows.push(...res.hits);
      onProgress(rows.length, target);
      if (!res.scrollId || res.hits.length === 0 || rows.length >= MAX_EXPORT_ROWS) break;
      res = await api.post('transactions/scroll', { ...query, scrollSize: MAX_SCROLL_SIZE, scrollId: res.scrollId }, { schema: ScrollResponse, read: true });
    }
    return rows.slice(0, MAX_EXPORT_ROWS);
  } catch (err) {
    console.error('encountered error retrieving all data', err);
    throw new Error('encountered error retrieving all data');
  }
}

/**
 * One row of a table by its whole id (the id search of transaction-data §5 with 36 characters is an exact match):
 * what a link to /payments/{id} opens. The server answers the signed-in partner's rows only.
 */
export function useTransactionById(table: SearchQuery['table'], id: string | undefined) {
  return useQuery({
    queryKey: ['transactions', 'one', table, id],
    queryFn: async () => {
      const res = await api.post('transactions/search', { table, idFilter: id, startIndex: 0, size: 1 }, { schema: SearchResponse, read: true });
      return res.data[0] ?? null;
    },
    enabled: !!id,
    staleTime: 30_000,
  });
}

/** The tables of the partner's screens that hold a transaction with this id (the server decides which it looks in). */
export function useLocateId(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['transactions', 'locate', id],
    queryFn: async () => (await api.post('transactions/locate', { id }, { schema: LocateResponse, read: true })).found,
    enabled: enabled && !!id,
    staleTime: 30_000,
  });
}
