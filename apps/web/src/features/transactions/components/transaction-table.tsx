import { AlertTriangle, ArrowUp, Download, RotateCw } from 'lucide-react';
import { Suspense, lazy, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { TimeZoneLine } from '../../../components/time-zone-line.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCsvExport, type ExportProgress } from '../hooks/use-csv-export.ts';
import { useTransactionSearch, type TableDef } from '../hooks/use-transaction-search.ts';
import type { Row } from '../tables.ts';
import { EmptyState } from './empty-state.tsx';
import { FilterBar } from './filter-bar.tsx';
import { Pager } from './pager.tsx';
import { TransactionRows } from './transaction-rows.tsx';
import { useT } from '../../../lib/i18n.ts';
import { transactionsMessages } from '../messages.ts';

/** A row's details, loaded when a row is first opened: the table's first paint does not carry the drawer. */
const DetailsDrawer = lazy(async () => ({ default: (await import('./details-drawer.tsx')).DetailsDrawer }));

function ExportStatus({ progress }: { progress: ExportProgress }) {
  const t = useT(transactionsMessages);
  return (
    <div className="border-b border-line px-4 py-3" role="status">
      <p className="mb-1 text-xs text-muted">{t('export.preparing', { loaded: progress.loaded, of: progress.of })}</p>
      <div className="h-1.5 overflow-hidden rounded bg-canvas">
        <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress.of ? (progress.loaded / progress.of) * 100 : 0}%` }} />
      </div>
    </div>
  );
}

/** A failed request, inside the table: the table's message (transaction-data §8) and Retry; the last rows stay below. */
function LoadError({ message, kept, retrying, onRetry }: { message: string; kept: boolean; retrying: boolean; onRetry: () => void }) {
  const t = useT(transactionsMessages);
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 border-b border-danger/20 bg-danger-soft/60 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="table-error"
    >
      <p className="flex items-start gap-2 text-sm text-danger">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          <span className="font-medium">{message}.</span> {kept ? t('table.loadKept') : t('table.loadCheck')}
        </span>
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry} loading={retrying} className="shrink-0">
        {!retrying && <RotateCw className="size-3.5" aria-hidden="true" />}
        {t('table.retry')}
      </Button>
    </div>
  );
}

type Props = {
  def: TableDef;
  walletMode: boolean;
  /** the wallet selector's choices (the partner's fiat wallets) */
  wallets: string[];
  /** one fiat wallet's rows only (its own screen): no wallet selector */
  fiatWallet?: string;
  /** a row opened from the address (/payments/{id}): its details show once it is found */
  linked?: Row;
  /** tells the screen which row's details are open (none when closed), to keep the address in step */
  onViewChange?: (row: Row | undefined) => void;
};

/** One transaction table: filters, id search, date range, wallet, pages of 10, details, export. */
export function TransactionTable({ def, walletMode, wallets, fiatWallet, linked, onViewChange }: Props) {
  const t = useT(transactionsMessages);
  const search = useTransactionSearch(def, fiatWallet);
  const csv = useCsvExport(def, walletMode);
  const [viewing, setViewing] = useState<Row>();
  const opener = useRef<HTMLElement | null>(null);
  const { page, total } = search;
  const shown = viewing ?? linked;
  const exportReason = `${def.key}-export-reason`;

  const viewChange = useRef(onViewChange);
  useEffect(() => {
    viewChange.current = onViewChange;
  }, [onViewChange]);
  // the same function on every render, so that the rows do not draw again for it
  const view = useCallback((row: Row, from: HTMLElement) => {
    opener.current = from;
    setViewing(row);
    viewChange.current?.(row);
  }, []);
  const columns = useMemo(() => def.columns(walletMode), [def, walletMode]);
  // The rows draw in a render of their own, after the one that takes the page's answer: that answer comes as a
  // store update, which React renders at once and in one piece; the rows' render is a transition, which yields to
  // the browser every few milliseconds. Until it is done the previous rows (or their placeholders) stay.
  // The pager's figures and the "N new" button come with them, so that what they say and the rows shown agree.
  const pending = page.isPending && !page.isError;
  const { rows, startIndex, totalText, hasRows, newRows } = search;
  const drawn = useDeferredValue(
    useMemo(
      () => ({ rows, pending, fetching: page.isFetching, paging: page.isPlaceholderData, startIndex, total, totalText, hasRows, newRows }),
      [rows, pending, page.isFetching, page.isPlaceholderData, startIndex, total, totalText, hasRows, newRows],
    ),
  );
  const close = () => {
    const back = opener.current;
    setViewing(undefined);
    viewChange.current?.(undefined);
    // Esc or Close gives the focus back to the View button that opened the drawer (once the drawer has gone)
    setTimeout(() => back?.isConnected && back.focus(), 0);
  };

  return (
    <Card>
      <FilterBar
        tableKey={def.key}
        search={search}
        walletMode={walletMode && !fiatWallet}
        wallets={wallets}
        actions={
          <div className="flex flex-col gap-1">
            <Button
              variant="secondary"
              onClick={() => void csv.start(search.query, total)}
              disabled={!!search.invalid || !search.hasRows || total === 0 || !!csv.progress}
              aria-describedby={search.invalid ? exportReason : undefined}
            >
              <Download className="size-4" aria-hidden="true" />
              {t('export.button')}
            </Button>
            {/* why Export is off, for a screen reader (the filters' own message shows on screen) */}
            {search.invalid && (
              <span id={exportReason} className="sr-only">
                {t('export.off', { reason: search.invalid })}
              </span>
            )}
          </div>
        }
      />
      {csv.progress && <ExportStatus progress={csv.progress} />}
      {page.isError && (
        <LoadError
          // an id search refused by the server (a link's ?id= that cannot be an id) says why; other failures say the table's message
          message={page.error instanceof ApiError && page.error.code === 'InvalidIdSearch' ? page.error.message : t(def.fetchError)}
          kept={search.hasRows}
          retrying={page.isFetching}
          onRetry={() => void page.refetch()}
        />
      )}
      {search.empty ? (
        <EmptyState
          kind={search.empty}
          reason={search.invalid}
          foundIn={
            search.empty === 'noDataForId' || search.empty === 'noDataForDate' ? { tables: search.foundIn, id: search.query.idFilter.trim() } : undefined
          }
        />
      ) : page.isError && !search.hasRows ? null : (
        <div className="relative">
          {/* on the line above the rows (over the paddings, not over a control): showing that rows came moves nothing */}
          <div aria-live="polite" className="pointer-events-none absolute inset-x-0 -top-4 z-10 flex justify-center">
            {drawn.newRows > 0 && (
              <button
                type="button"
                onClick={search.showNew}
                data-testid="show-new-rows"
                className="pointer-events-auto inline-flex items-center gap-1.5 rounded-full bg-brand-800 px-3.5 py-1.5 text-sm font-medium text-white shadow-lg hover:bg-brand-900"
              >
                <ArrowUp className="size-4" aria-hidden="true" />
                {t('table.newRows', { count: drawn.newRows })}
                <span className="sr-only">{t('table.showNew')}</span>
              </button>
            )}
          </div>
          <TransactionRows label={t(def.label)} columns={columns} rows={drawn.rows} pending={drawn.pending} fetching={drawn.fetching} onView={view} />
        </div>
      )}
      <Pager
        startIndex={drawn.startIndex}
        shown={drawn.rows.length}
        total={drawn.total}
        totalText={drawn.totalText}
        loaded={drawn.hasRows}
        // only a page on its way holds the pager (its rows anchor the next one); a refresh of the rows shown (a live
        // change, one waiting through an outage) does not: Next and Previous answer every click
        busy={drawn.pending || drawn.paging}
        onPage={search.goTo}
      />
      <TimeZoneLine />
      {shown && (
        <Suspense fallback={null}>
          <DetailsDrawer table={def.key} row={shown} onClose={close} />
        </Suspense>
      )}
    </Card>
  );
}
