import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { statusList } from '@portal/contract/status-groups';
import { MAX_RESULT_WINDOW, REVERSED_RANGE_MESSAGE, parseIdSearch, type FilterKey, type SearchAnchor, type SearchQuery } from '@portal/contract/transactions';
import { PAGE_SIZE, useLocateId, useTransactionPage } from '../api/search.ts';
import { displayTimeZone, formatCount } from '../../../lib/format.ts';
import { TRANSACTION_URL_KEYS } from '../../../lib/transaction-links.ts';
import { localizeMessage, translator } from '../../../lib/i18n.ts';
import { cleanRows } from '../export.ts';
import { transactionsMessages } from '../messages.ts';
import { emptyState, growOptions, type FilterCategory, type Row, type TabDef } from '../tables.ts';

export type TableDef = Omit<TabDef, 'index'>;
export type DateRange = { startDate: string; endDate: string };

/**
 * The search parameters of the address that hold a table's state (lib/transaction-links.ts, whose links carry them
 * too). The screen's own `tab` stays as it is.
 */
export const URL_KEYS = TRANSACTION_URL_KEYS;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const LAST_PAGE = Math.floor((MAX_RESULT_WINDOW - 1) / PAGE_SIZE) + 1;

/** The page number of the address: a whole number from 1, no page past the 10,000th row; anything else is 1. */
export function pageOf(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, LAST_PAGE) : 1;
}

/**
 * The search state of one table (transaction-data §2, §5), kept in the address: filter categories, id search, date
 * range, wallet and the page shown; the query sent; the loaded rows (the last good ones stay when a request
 * fails); the empty state. Every change of the query goes back to the first page. A query that cannot be searched
 * (a reversed date range, an id that no table shows) is not sent and shows no rows: `invalid` says why, also on a
 * fresh load of such an address; it is searched as soon as it is valid again.
 */
export function useTransactionSearch(def: TableDef, fixedWallet?: string) {
  const [params, setParams] = useSearchParams();
  // the options of each category (those of payment method and transaction type grow with the loaded rows)
  const [options, setOptions] = useState<FilterCategory[]>(def.filters);
  const categories: FilterCategory[] = options.map((c) => {
    const selected = params.get(c.key) ?? '';
    // a status filter lists its statuses separated by commas (an old link has one); each is an option
    const values = c.key === 'status' ? statusList(selected) : selected ? [selected] : [];
    const missing = values.filter((v) => !c.options.includes(v));
    return { ...c, selected: c.key === 'status' ? values.join(',') : selected, options: missing.length ? [...c.options, ...missing] : c.options };
  });
  const idFilter = params.get(URL_KEYS.id) ?? '';
  const from = params.get(URL_KEYS.from) ?? '';
  const to = params.get(URL_KEYS.to) ?? '';
  const range: DateRange = { startDate: DAY.test(from) ? from : '', endDate: DAY.test(to) ? to : '' };
  // a fixed wallet (a fiat wallet's own screen) is where the table starts and is not a filter the user chose
  const fiatWallet = fixedWallet ?? (params.get(URL_KEYS.wallet) || 'all');
  const startIndex = (pageOf(params.get(URL_KEYS.page)) - 1) * PAGE_SIZE;
  // a row of the page shown when the user moved to another page: the server's keyset hint for that page (used
  // only while the page and the query are the ones it was taken for)
  const [anchor, setAnchor] = useState<{ startIndex: number; query: SearchQuery; hint: SearchAnchor }>();

  const zone = displayTimeZone();
  const hasDate = !!(range.startDate && range.endDate);
  const reversed = hasDate && range.endDate < range.startDate;
  const filters = JSON.stringify(Object.fromEntries(categories.filter((c) => c.selected).map((c) => [c.key, c.selected])));
  const built: SearchQuery = useMemo(
    () => ({
      table: def.key,
      filters: JSON.parse(filters) as SearchQuery['filters'],
      idFilter,
      range: hasDate ? { startDate: range.startDate, endDate: range.endDate } : {},
      fiatWallet,
      // the days of the range are days in the user's zone (the server computes their bounds); UTC is the default
      ...(zone === 'UTC' ? {} : { timeZone: zone }),
    }),
    [def.key, filters, idFilter, range.startDate, range.endDate, hasDate, fiatWallet, zone],
  );
  const query = built;
  const idParsed = parseIdSearch(def.key, idFilter);
  // the contract's messages, in the language in force (the same the server would answer)
  const invalid = reversed ? localizeMessage(REVERSED_RANGE_MESSAGE) : idParsed.ok ? undefined : localizeMessage(idParsed.message);

  const page = useTransactionPage(query, startIndex, anchor && anchor.startIndex === startIndex && anchor.query === query ? anchor.hint : undefined, !invalid);
  // the last page that arrived stays on screen under the error when a request fails
  const [lastGood, setLastGood] = useState<{ data: NonNullable<typeof page.data>; startIndex: number }>();
  if (page.data && !page.isPlaceholderData && lastGood?.data !== page.data) setLastGood({ data: page.data, startIndex });
  // a reply of another table (never from the server: the query names its table) is not shown
  // nothing shows for an invalid query (not the placeholder of the last valid one either)
  const current = !invalid && page.data?.table === def.key ? page.data : undefined;
  const shown = invalid ? undefined : (current ?? (page.isError ? lastGood?.data : undefined));
  const shownStart = current || !page.isError ? startIndex : (lastGood?.startIndex ?? startIndex);
  // the first page as the reader has it: a refetch (a live change) brings the rows on screen up to date in place, and
  // rows that arrive above them wait behind "N new" until asked for, so that no row moves under the reader's eyes
  const pageKey = JSON.stringify([query, shownStart]);
  const [pinned, setPinned] = useState<{ key: string; rows: Row[] }>();
  const fresh = shown?.data as Row[] | undefined;
  const settled = !!fresh && !page.isPlaceholderData;
  if (settled && (pinned?.key !== pageKey || shownStart > 0) && pinned?.rows !== fresh) setPinned({ key: pageKey, rows: fresh });
  const held = settled && pinned?.key === pageKey && shownStart === 0 ? pinned : undefined;
  const waiting = useMemo(() => {
    if (!held || !fresh) return [];
    const kept = new Set(held.rows.map((r) => r.id));
    return fresh.filter((r) => !kept.has(r.id));
  }, [held, fresh]);
  const onScreen = useMemo(() => {
    if (!held || !fresh || waiting.length === 0) return fresh;
    const latest = new Map(fresh.map((r) => [r.id, r]));
    return held.rows.map((r) => latest.get(r.id) ?? r);
  }, [held, fresh, waiting]);
  const loaded = useMemo(() => (onScreen ? cleanRows(def.key, onScreen) : undefined), [onScreen, def.key]);
  const rows = useMemo(() => loaded ?? [], [loaded]);

  // filter options grow with each loaded page
  const [grownFrom, setGrownFrom] = useState<Row[] | undefined>();
  if (loaded !== grownFrom) {
    setGrownFrom(loaded);
    if (loaded?.length) setOptions((c) => growOptions(c, loaded));
  }

  // the parameters as last set: the router's functional update reads those of the last render, so two changes
  // before the next render (From, then To, typed at once) would lose the first
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);

  /** Changes some parameters (an empty value removes one) and, unless only the page moves, goes back to page 1. */
  const update = (changes: Record<string, string>, o: { keepPage?: boolean; replace?: boolean } = {}) => {
    const next = new URLSearchParams(latest.current);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!o.keepPage) next.delete(URL_KEYS.page);
    latest.current = next;
    setParams(next, { replace: o.replace });
  };

  // a page of the address past the last one (a link made when there were more rows) shows the last page instead
  const pastEnd = !!current && !page.isPlaceholderData && current.data.length === 0 && current.total > 0 && startIndex > 0;
  const lastStart = current ? Math.max(0, Math.floor((Math.min(current.total, MAX_RESULT_WINDOW) - 1) / PAGE_SIZE) * PAGE_SIZE) : 0;
  useEffect(() => {
    if (pastEnd)
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (lastStart > 0) next.set(URL_KEYS.page, String(lastStart / PAGE_SIZE + 1));
          else next.delete(URL_KEYS.page);
          return next;
        },
        { replace: true },
      );
  }, [pastEnd, lastStart, setParams]);

  const anyFilter = categories.some((c) => c.selected) || fiatWallet !== (fixedWallet ?? 'all');
  const total = shown?.total ?? 0;
  const empty = invalid
    ? ('invalidFilter' as const)
    : page.isSuccess && !page.isPlaceholderData && !pastEnd
      ? emptyState({ rows: rows.length, idFilter: query.idFilter, anyFilter, hasDate: !!query.range.startDate })
      : null;
  // an id search that found nothing here asks where the id is (the partner's other tables)
  const located = useLocateId(query.idFilter.trim(), !invalid && !!empty && !!query.idFilter.trim());
  const foundIn = (located.data ?? []).filter((t) => t !== def.key);

  return {
    query,
    page,
    rows,
    total,
    /** rows that came while the first page was on screen, waiting to be shown (`showNew`) */
    newRows: waiting.length,
    /** Shows the first page as it is now, with the rows that came. */
    showNew: () => fresh && setPinned({ key: pageKey, rows: fresh }),
    /** the total as shown: exact, or 10,000+ (at least 10,000) when the server counted no further */
    totalText: shown
      ? shown.totalRelation === 'gte'
        ? translator(transactionsMessages)('pager.atLeast', { count: MAX_RESULT_WINDOW })
        : formatCount(total)
      : '',
    /** rows are on screen (this page's, or the last good ones under an error) */
    hasRows: !!shown,
    /** which empty state shows; none while the first page loads or an older page stands in for the next */
    empty,
    /** why the filters cannot be searched (a reversed range, text that is no id): no rows show, export is off */
    invalid,
    /** the other tables of the partner's screens that hold the id searched, when this one has none */
    foundIn,
    startIndex: shownStart,
    /** the message of a date range that ends before it starts (the same as the data-download page's) */
    rangeError: reversed ? localizeMessage(REVERSED_RANGE_MESSAGE) : undefined,
    filters: { categories, idFilter, range, fiatWallet },
    searchId: (id: string) => update({ [URL_KEYS.id]: id }),
    /** Sets the days given (each field sends its own, so that one typed right after the other is kept). */
    setRange: (r: Partial<DateRange>) =>
      update(
        {
          ...(r.startDate !== undefined ? { [URL_KEYS.from]: r.startDate } : {}),
          ...(r.endDate !== undefined ? { [URL_KEYS.to]: r.endDate } : {}),
        },
        { replace: true },
      ),
    setFiatWallet: (w: string) => update({ [URL_KEYS.wallet]: w === 'all' ? '' : w }),
    selectFilter: (key: FilterKey, value: string) => update({ [key]: value }),
    resetFilters: () => update(Object.fromEntries(categories.map((c) => [c.key, '']))),
    goTo: (index: number) => {
      // the last row shown for a later page, the first for an earlier one (only rows of this query, not a stand-in)
      const rowsShown = current && !page.isPlaceholderData ? current.data : [];
      const row = index > startIndex ? rowsShown.at(-1) : rowsShown[0];
      setAnchor(
        row && {
          startIndex: index,
          query,
          hint: { index: index > startIndex ? startIndex + rowsShown.length - 1 : startIndex, createdAt: row.createdAt, id: row.id },
        },
      );
      update({ [URL_KEYS.page]: index > 0 ? String(Math.floor(index / PAGE_SIZE) + 1) : '' }, { keepPage: true });
    },
  };
}

export type TransactionSearch = ReturnType<typeof useTransactionSearch>;
