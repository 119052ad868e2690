import { RotateCcw, Search, SlidersHorizontal } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { ID_SEARCH_EXAMPLE, parseIdSearch, type SearchTable } from '@portal/contract/transactions';
import { displayTimeZone, paymentMethodLabel, requestSourceLabel, statusLabel, transactionTypeLabel } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import type { TransactionSearch } from '../hooks/use-transaction-search.ts';
import { transactionsMessages } from '../messages.ts';
import { countryLabel, tradeAmountLabel } from '../tables.ts';
import { StatusFilter } from './status-filter.tsx';

/** An option of a filter as the tables write its value. */
export function optionLabel(key: string, value: string): string {
  switch (key) {
    case 'paymentMethod':
      return paymentMethodLabel(value);
    case 'status':
      return statusLabel(value);
    case 'transactionType':
      return transactionTypeLabel(value);
    case 'requestSource':
      return requestSourceLabel(value);
    case 'country':
      return countryLabel(value);
    case 'amount':
      return tradeAmountLabel(value);
    default:
      return value;
  }
}

/** One end of the date range; `errorId` names the range's error, when it has one. */
function DateInput({
  label,
  value,
  disabled,
  errorId,
  onChange,
}: {
  label: string;
  value: string;
  disabled: boolean;
  errorId: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-muted">
      {label}
      <input
        type="date"
        className={cn(inputClass, 'w-full sm:w-40')}
        value={value}
        disabled={disabled}
        aria-invalid={!!errorId}
        aria-describedby={errorId}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

type Props = {
  tableKey: string;
  search: Pick<TransactionSearch, 'filters' | 'rangeError' | 'searchId' | 'setRange' | 'setFiatWallet' | 'selectFilter' | 'resetFilters'>;
  walletMode: boolean;
  wallets: string[];
  /** buttons at the end of the first row (the export) */
  actions?: ReactNode;
};

function IdSearch({ tableKey, idFilter, hasRange, onSearch }: { tableKey: string; idFilter: string; hasRange: boolean; onSearch: (id: string) => void }) {
  const t = useT(transactionsMessages);
  const [text, setText] = useState(idFilter);
  // the id of the address (a shared link, Back) shows in the box
  const [shownFor, setShownFor] = useState(idFilter);
  if (idFilter !== shownFor) {
    setShownFor(idFilter);
    setText(idFilter);
  }
  // text that cannot be an id the table shows is refused here with the server's own message (contract parseIdSearch)
  const [refusal, setRefusal] = useState<string>();
  const table = tableKey as SearchTable;
  const example = ID_SEARCH_EXAMPLE[table] ?? ID_SEARCH_EXAMPLE.payments;
  const errorId = `${tableKey}-id-error`;
  return (
    <form
      className="flex min-w-0 flex-1 flex-col gap-1"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        const parsed = parseIdSearch(table, text);
        setRefusal(parsed.ok ? undefined : localizeMessage(parsed.message));
        if (parsed.ok) onSearch(text.trim());
      }}
    >
      <label htmlFor={`${tableKey}-id`} className="text-xs font-medium text-muted">
        {t('filters.searchById')}
      </label>
      <div className="flex gap-2">
        <input
          id={`${tableKey}-id`}
          className={cn(inputClass, 'font-mono')}
          placeholder={t('filters.example', { example })}
          value={text}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? errorId : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setRefusal(undefined);
          }}
        />
        <Button type="submit" variant="secondary" aria-label={t('filters.search')}>
          <Search className="size-4" aria-hidden="true" />
        </Button>
      </div>
      {refusal && (
        <p id={errorId} role="alert" className="text-xs text-danger">
          {/* the example id is never broken at its hyphen */}
          {refusal.split(example).flatMap((part, i) =>
            i === 0
              ? [part]
              : [
                  <span key={i} className="whitespace-nowrap">
                    {example}
                  </span>,
                  part,
                ],
          )}
        </p>
      )}
      {idFilter && hasRange && <p className="text-xs text-warning">{t('filters.idAcrossDates')}</p>}
    </form>
  );
}

/**
 * The table's filters: id search, date range (off during an id search), wallet, export; then the filter categories.
 * On a phone only the id search shows; the rest opens with the Filters button (which counts the filters in use).
 */
export function FilterBar({ tableKey, search, walletMode, wallets, actions }: Props) {
  const t = useT(transactionsMessages);
  const { categories, idFilter, range, fiatWallet } = search.filters;
  const [open, setOpen] = useState(false);
  const inUse = categories.filter((c) => c.selected).length + (range.startDate && range.endDate ? 1 : 0) + (walletMode && fiatWallet !== 'all' ? 1 : 0);
  const panel = `${tableKey}-filters`;
  return (
    <>
      <div className="flex flex-col gap-3 border-b border-line p-4 lg:flex-row lg:flex-wrap lg:items-end">
        <div className="flex min-w-0 flex-1 items-end gap-2">
          <IdSearch tableKey={tableKey} idFilter={idFilter} hasRange={!!(range.startDate || range.endDate)} onSearch={search.searchId} />
          <Button variant="secondary" className="shrink-0 sm:hidden" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
            <SlidersHorizontal className="size-4" aria-hidden="true" />
            {t('filters.toggle')}
            {inUse > 0 && <span className="rounded-full bg-brand-800 px-1.5 text-[11px] leading-4 text-white">{inUse}</span>}
          </Button>
        </div>
        <div id={panel} className={cn('flex-col gap-3 sm:flex sm:flex-row sm:flex-wrap sm:items-end', open ? 'flex' : 'hidden')}>
          <div className="flex flex-col gap-1">
            <div className="grid grid-cols-2 gap-2 sm:flex">
              <DateInput
                label={t('filters.from', { zone: displayTimeZone() })}
                value={range.startDate}
                disabled={!!idFilter}
                errorId={search.rangeError ? `${tableKey}-range-error` : undefined}
                onChange={(startDate) => search.setRange({ startDate })}
              />
              <DateInput
                label={t('filters.to', { zone: displayTimeZone() })}
                value={range.endDate}
                disabled={!!idFilter}
                errorId={search.rangeError ? `${tableKey}-range-error` : undefined}
                onChange={(endDate) => search.setRange({ endDate })}
              />
            </div>
            {search.rangeError && (
              <p id={`${tableKey}-range-error`} role="alert" className="text-xs text-danger">
                {search.rangeError}
              </p>
            )}
          </div>
          {walletMode && (
            <div className="sm:w-40">
              <p className="mb-1 text-xs font-medium text-muted">{t('filters.wallet')}</p>
              <SearchableSelect
                label={t('filters.wallet')}
                options={['all', ...wallets].map((w) => ({ value: w, label: w === 'all' ? t('filters.allWallets') : w }))}
                value={fiatWallet}
                onChange={search.setFiatWallet}
              />
            </div>
          )}
          {actions}
        </div>
      </div>
      <div className={cn('flex-wrap items-end gap-3 border-b border-line px-4 py-3 sm:flex', open ? 'flex' : 'hidden')}>
        {categories.map((c) => (
          <div key={c.key} className="w-full sm:w-44">
            <p className="mb-1 text-xs font-medium text-muted">{c.name}</p>
            {c.key === 'status' ? (
              <StatusFilter options={c.options} value={c.selected} onChange={(v) => search.selectFilter(c.key, v)} />
            ) : (
              <SearchableSelect
                label={c.name}
                placeholder={t('filters.all')}
                options={c.options.map((o) => ({ value: o, label: optionLabel(c.key, o) }))}
                value={c.selected || undefined}
                onChange={(v) => search.selectFilter(c.key, v)}
              />
            )}
          </div>
        ))}
        {categories.some((c) => c.selected) && (
          <Button variant="ghost" size="sm" onClick={search.resetFilters}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            {t('filters.reset')}
          </Button>
        )}
      </div>
    </>
  );
}
