import { Download, Eye, RotateCcw, Search } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { SearchQuery } from '@portal/contract/transactions';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { paymentMethodLabel, titleCase } from '../../../lib/format.ts';
import { PAGE_SIZE, fetchAll, useTransactionPage } from '../api/search.ts';
import { buildCsv, cleanRows, exportColumnsFor } from '../export.ts';
import { emptyState, growOptions, type FilterCategory, type Row, type TabDef } from '../tables.ts';
import { EmptyState } from './empty-state.tsx';

const optionLabel = (key: string, value: string) => (key === 'paymentMethod' ? paymentMethodLabel(value) : key === 'status' || key === 'transactionType' || key === 'requestSource' ? titleCase(value) : value);

function download(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** One transaction table: filters, id search, date range, wallet, pages of 10, details, export. */
export function TransactionTable({ def, walletMode, wallets }: { def: Omit<TabDef, 'index'>; walletMode: boolean; wallets: string[] }) {
  const columns = def.columns(walletMode);
  const [categories, setCategories] = useState<FilterCategory[]>(def.filters);
  const [idInput, setIdInput] = useState('');
  const [idFilter, setIdFilter] = useState('');
  const [range, setRange] = useState({ startDate: '', endDate: '' });
  const [fiatWallet, setFiatWallet] = useState('all');
  const [startIndex, setStartIndex] = useState(0);
  const [viewing, setViewing] = useState<Row>();
  const [exporting, setExporting] = useState<{ loaded: number; of: number }>();

  const query: SearchQuery = useMemo(
    () => ({
      table: def.key,
      filters: Object.fromEntries(categories.filter((c) => c.selected).map((c) => [c.key, c.selected])),
      idFilter,
      range: range.startDate && range.endDate ? range : {},
      fiatWallet,
    }),
    [def.key, categories, idFilter, range, fiatWallet],
  );
  const page = useTransactionPage(query, startIndex);
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

  const change = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setStartIndex(0);
  };
  const anyFilter = categories.some((c) => c.selected) || fiatWallet !== 'all';
  const empty = page.isSuccess && !page.isPlaceholderData ? emptyState({ rows: rows.length, idFilter, anyFilter, hasDate: !!(range.startDate && range.endDate) }) : null;
  const total = page.data?.total ?? 0;
  const totalText = page.data ? (page.data.totalRelation === 'gte' ? '10,000+' : total.toLocaleString('en-US')) : '';

  async function exportCsv() {
    setExporting({ loaded: 0, of: Math.min(total, 10_000) });
    try {
      const all = await fetchAll(query, total, (loaded, of) => setExporting({ loaded, of }));
      download(`${def.key}-${new Date().toISOString().slice(0, 10)}.csv`, buildCsv(exportColumnsFor(def.key, walletMode), cleanRows(def.key, all)));
    } catch (err) {
      toast.show(err instanceof Error ? err.message : 'encountered error retrieving all data');
    } finally {
      setExporting(undefined);
    }
  }

  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-line p-4 lg:flex-row lg:flex-wrap lg:items-end">
        <form
          className="flex min-w-0 flex-1 flex-col gap-1"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            change(setIdFilter)(idInput.trim());
          }}
        >
          <label htmlFor={`${def.key}-id`} className="text-xs font-medium text-muted">
            Search by ID
          </label>
          <div className="flex gap-2">
            <input id={`${def.key}-id`} className={cn(inputClass, 'font-mono')} placeholder="e.g. 3f2a9c1e" value={idInput} onChange={(e) => setIdInput(e.target.value)} />
            <Button type="submit" variant="secondary" aria-label="Search">
              <Search className="size-4" aria-hidden="true" />
            </Button>
          </div>
          {idFilter && (range.startDate || range.endDate) && <p className="text-xs text-warning">An ID search looks across all dates: the date range does not narrow it.</p>}
        </form>
        <div className="grid grid-cols-2 gap-2 sm:flex">
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            From
            <input type="date" className={cn(inputClass, 'w-full sm:w-40')} value={range.startDate} disabled={!!idFilter} onChange={(e) => change(setRange)({ ...range, startDate: e.target.value })} />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            To
            <input type="date" className={cn(inputClass, 'w-full sm:w-40')} value={range.endDate} disabled={!!idFilter} onChange={(e) => change(setRange)({ ...range, endDate: e.target.value })} />
          </label>
        </div>
        {walletMode && (
          <div className="w-40">
            <p className="mb-1 text-xs font-medium text-muted">Wallet</p>
            <SearchableSelect label="Wallet" options={['all', ...wallets].map((w) => ({ value: w, label: w === 'all' ? 'All wallets' : w }))} value={fiatWallet} onChange={change(setFiatWallet)} />
          </div>
        )}
        <Button variant="secondary" onClick={() => void exportCsv()} disabled={!page.data || total === 0 || !!exporting}>
          <Download className="size-4" aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-3 border-b border-line px-4 py-3">
        {categories.map((c) => (
          <div key={c.key} className="w-full sm:w-44">
            <p className="mb-1 text-xs font-medium text-muted">{c.name}</p>
            <SearchableSelect
              label={c.name}
              placeholder="All"
              options={c.options.map((o) => ({ value: o, label: optionLabel(c.key, o) }))}
              value={c.selected || undefined}
              onChange={(v) => change(setCategories)(categories.map((x) => (x.key === c.key ? { ...x, selected: v } : x)))}
            />
          </div>
        ))}
        {categories.some((c) => c.selected) && (
          <Button variant="ghost" size="sm" onClick={() => change(setCategories)(categories.map((c) => ({ ...c, selected: '' })))}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            Reset filters
          </Button>
        )}
      </div>
      {exporting && (
        <div className="border-b border-line px-4 py-3" role="status">
          <p className="mb-1 text-xs text-muted">
            Preparing export: {exporting.loaded.toLocaleString('en-US')} of {exporting.of.toLocaleString('en-US')} rows
          </p>
          <div className="h-1.5 overflow-hidden rounded bg-canvas">
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${exporting.of ? (exporting.loaded / exporting.of) * 100 : 0}%` }} />
          </div>
        </div>
      )}
      {empty ? (
        <EmptyState kind={empty} />
      ) : (
        <div className={cn('min-h-[460px]', page.isFetching && 'opacity-70')} aria-busy={page.isFetching}>
          <Table>
            <thead>
              <tr>
                {columns.map((c) => (
                  <Th key={c.header}>{c.header}</Th>
                ))}
                <Th>
                  <span className="sr-only">View</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {page.isPending
                ? Array.from({ length: PAGE_SIZE }, (_, i) => (
                    <tr key={i}>
                      {columns.map((c) => (
                        <Td key={c.header}>
                          <span className="block h-4 w-24 animate-pulse rounded bg-canvas" />
                        </Td>
                      ))}
                      <Td />
                    </tr>
                  ))
                : rows.map((r) => (
                    <tr key={r.id} className="hover:bg-canvas/60">
                      {columns.map((c) => (
                        <Td key={c.header} className={c.header === 'ID' ? 'font-mono text-xs' : undefined}>
                          {c.header === 'ID' ? `${(r.id ?? '').slice(0, 8)}…` : c.cell(r)}
                        </Td>
                      ))}
                      <Td>
                        <Button variant="ghost" size="sm" onClick={() => setViewing(r)} aria-label={`View ${r.id}`} title="View">
                          <Eye className="size-4" aria-hidden="true" />
                        </Button>
                      </Td>
                    </tr>
                  ))}
            </tbody>
          </Table>
        </div>
      )}
      <div className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
        <p className="text-muted" data-testid="page-summary">
          {page.data && total > 0 ? `${(startIndex + 1).toLocaleString('en-US')}–${(startIndex + rows.length).toLocaleString('en-US')} of ${totalText}` : ' '}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={startIndex === 0 || page.isFetching} onClick={() => setStartIndex(Math.max(0, startIndex - PAGE_SIZE))}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={startIndex + PAGE_SIZE >= Math.min(total, 10_000) || page.isFetching} onClick={() => setStartIndex(startIndex + PAGE_SIZE)}>
            Next
          </Button>
        </div>
      </div>
      <Dialog open={!!viewing} onOpenChange={(o) => !o && setViewing(undefined)} title="Transaction details" width={480} side>
        {viewing && (
          <dl className="grid grid-cols-1 gap-y-3 text-sm">
            {Object.entries(viewing)
              .filter(([k]) => k !== 'partnerId')
              .map(([k, v]) => (
                <div key={k} className="min-w-0">
                  <dt className="text-xs text-muted">{titleCase(k.replace(/([A-Z])/g, ' $1'))}</dt>
                  <dd className="break-all font-medium">{v ?? '—'}</dd>
                </div>
              ))}
          </dl>
        )}
      </Dialog>
    </Card>
  );
}
