import { useEffect, useMemo, useState } from 'react';
import { MAX_RESULT_WINDOW, type FilterKey, type SearchAnchor, type SearchQuery } from '@portal/contract/transactions';
import { toast } from '../../../components/ui/toast-store.ts';
import { useTransactionPage } from '../api/search.ts';
import { cleanRows } from '../export.ts';
import { emptyState, growOptions, type FilterCategory, type Row, type TabDef } from '../tables.ts';

export type TableDef = Omit<TabDef, 'index'>;
export type DateRange = { startDate: string; endDate: string };

/**
 * The search state of one table (transaction-data §2, §5): filter categories, id search, date range, wallet and
 * the page shown; the query sent; the loaded rows; the empty state. Every change of the query goes back to the
 * first page. A failed fetch shows the table's message as a toast.
 */
export function useTransactionSearch(def: TableDef, fixedWallet?: string) {
  const [categories, setCategories] = useState<FilterCategory[]>(def.filters);
  const [idFilter, setIdFilter] = useState('');
  const [range, setRange] = useState<DateRange>({ startDate: '', endDate: '' });
  // a fixed wallet (a fiat wallet's own screen) is where the table starts and is not a filter the user chose
  const [fiatWallet, setFiatWallet] = useState(fixedWallet ?? 'all');
  const [startIndex, setStartIndex] = useState(0);
  // a row of the page shown when the user moved to another page: the server's keyset hint for the next one
  const [anchor, setAnchor] = useState<SearchAnchor | undefined>();

  const hasDate = !!(range.startDate && range.endDate);
  const query: SearchQuery = useMemo(
    () => ({
      table: def.key,
      filters: Object.fromEntries(categories.filter((c) => c.selected).map((c) => [c.key, c.selected])),
      idFilter,
      range: hasDate ? range : {},
      fiatWallet,
    }),
    [def.key, categories, idFilter, range, hasDate, fiatWallet],
  );
  const page = useTransactionPage(query, startIndex, anchor);
  const loaded = useMemo(() => (page.data ? cleanRows(def.key, page.data.data as Row[]) : undefined), [page.data, def.key]);
  const rows = useMemo(() => loaded ?? [], [loaded]);

  // filter options grow with each loaded page (adjusting state while rendering, as React advises over an effect)
  const [grownFrom, setGrownFrom] = useState<Row[] | undefined>();
  if (loaded !== grownFrom) {
    setGrownFrom(loaded);
    if (loaded?.length) setCategories((c) => growOptions(c, loaded));
  }

  useEffect(() => {
    if (page.isError) toast.show(def.fetchError);
  }, [page.isError, def.fetchError]);

  const refine =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setStartIndex(0);
      setAnchor(undefined);
    };
  const anyFilter = categories.some((c) => c.selected) || fiatWallet !== (fixedWallet ?? 'all');
  const total = page.data?.total ?? 0;

  return {
    query,
    page,
    rows,
    total,
    /** the total as shown: exact, or 10,000+ when the server counted no further */
    totalText: page.data ? (page.data.totalRelation === 'gte' ? `${MAX_RESULT_WINDOW.toLocaleString('en-US')}+` : total.toLocaleString('en-US')) : '',
    /** which empty state shows; none while the first page loads or an older page stands in for the next */
    empty: page.isSuccess && !page.isPlaceholderData ? emptyState({ rows: rows.length, idFilter, anyFilter, hasDate }) : null,
    startIndex,
    filters: { categories, idFilter, range, fiatWallet },
    searchId: refine(setIdFilter),
    setRange: refine(setRange),
    setFiatWallet: refine(setFiatWallet),
    selectFilter: (key: FilterKey, value: string) => refine(setCategories)(categories.map((c) => (c.key === key ? { ...c, selected: value } : c))),
    resetFilters: () => refine(setCategories)(categories.map((c) => ({ ...c, selected: '' }))),
    goTo: (next: number) => {
      // the last row shown for a later page, the first for an earlier one (only rows of this query, not a stand-in)
      const shown = page.data && !page.isPlaceholderData ? page.data.data : [];
      const row = next > startIndex ? shown.at(-1) : shown[0];
      setAnchor(row && { index: next > startIndex ? startIndex + shown.length - 1 : startIndex, createdAt: row.createdAt, id: row.id });
      setStartIndex(next);
    },
  };
}

export type TransactionSearch = ReturnType<typeof useTransactionSearch>;
