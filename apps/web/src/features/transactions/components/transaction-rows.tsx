import { Eye } from 'lucide-react';
import { memo, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { useT } from '../../../lib/i18n.ts';
import { PAGE_SIZE } from '../api/search.ts';
import { transactionsMessages } from '../messages.ts';
import type { Column, Row } from '../tables.ts';

type Props = {
  label: string;
  columns: Column[];
  rows: Row[];
  pending: boolean;
  fetching: boolean;
  onView: (row: Row, opener: HTMLElement) => void;
};

/**
 * Fixed widths for the columns whose content changes from page to page, so that nothing moves while filters change
 * (the table lays out fixed; the other columns share what is left).
 */
const WIDTH: Record<NonNullable<Column['kind']>, string> = { id: '8rem', date: '8.5rem', amount: '11.5rem', status: '11rem' };
const widthOf = (c: Column) => c.width ?? (c.kind ? WIDTH[c.kind] : undefined);

/** On a phone each row is a card: id, date, amount and status first, then the rest. */
const ORDER: Record<NonNullable<Column['kind']>, string> = { id: 'max-sm:order-1', date: 'max-sm:order-2', amount: 'max-sm:order-3', status: 'max-sm:order-4' };

/**
 * A placeholder as tall as the column's cell will be: a bar per line of text, in a line as tall as that text's (a
 * line of the table's text, then a quieter, smaller line per second line), so that the rows take the placeholders'
 * place without moving what is below them.
 */
function PlaceholderCell({ column }: { column: Column }) {
  const quiet = column.kind === 'date' ? 1 : column.sub ? (column.subLines ?? 1) : 0;
  const bar = cn('block animate-pulse rounded bg-canvas', column.kind === 'amount' && 'ml-auto');
  return (
    <>
      <span className="block py-0.5">
        <span className={cn(bar, 'h-4 w-20')} />
      </span>
      {Array.from({ length: quiet }, (_, i) => (
        <span key={i} className="block py-0.5">
          <span className={cn(bar, 'h-3 w-16')} />
        </span>
      ))}
    </>
  );
}

/** "Nov 16, 2026, 01:44 UTC" on two lines: the day, then the time with its zone. */
function DateCell({ text }: { text: string }) {
  const at = text.lastIndexOf(', ');
  if (at < 0) return <span>{text}</span>;
  return (
    <span title={text} data-date={text}>
      <span className="whitespace-nowrap">{text.slice(0, at)}</span>
      <span className="block whitespace-nowrap text-xs text-muted"> {text.slice(at + 2)}</span>
    </span>
  );
}

function Cell({ column, row }: { column: Column; row: Row }): ReactNode {
  const text = column.cell(row);
  switch (column.kind) {
    case 'id': {
      const value = column.value?.(row) ?? text;
      return (
        <span className="inline-flex items-center gap-0.5">
          <span className="whitespace-nowrap font-mono text-xs" title={value}>
            {text}
          </span>
          <CopyButton value={value} label={column.header === 'ID' ? 'ID' : column.header.replace(/^\p{L}/u, (c) => c.toUpperCase())} />
        </span>
      );
    }
    case 'date':
      return <DateCell text={text} />;
    case 'amount': {
      const sub = column.sub?.(row);
      return (
        <span className="block tabular-nums sm:text-right">
          <span className="font-medium sm:whitespace-nowrap" data-testid="amount-main">
            {text}
          </span>
          {sub && (
            <span className="block text-xs text-muted" data-testid="amount-sub">
              {sub.split(' · ').map((part, i) => (
                <span key={i} className="block whitespace-nowrap">
                  {i > 0 && <span className="sr-only"> · </span>}
                  {part}
                </span>
              ))}
            </span>
          )}
        </span>
      );
    }
    case 'status':
      // a long status ("Pending Hash Confirmation") wraps inside its badge rather than widen a phone's card
      return (
        <StatusBadge status={column.value?.(row)} className="max-w-full whitespace-normal!">
          {text}
        </StatusBadge>
      );
    default: {
      // a second, quieter line where the column has one (the combined tab's type, its payment method under it)
      const sub = column.sub?.(row);
      if (!sub) return text;
      return (
        <span className="block">
          <span className="whitespace-nowrap">{text}</span>
          <span className="block whitespace-nowrap text-xs text-muted">{sub}</span>
        </span>
      );
    }
  }
}

/**
 * The rows of one page (placeholders while the first loads), a table from `sm` up and cards below. Drawn again only
 * when one of its props changes (its table passes the same columns and the same `onView` on every render).
 */
export const TransactionRows = memo(function TransactionRows({ label, columns, rows, pending, fetching, onView }: Props) {
  const t = useT(transactionsMessages);
  return (
    <div className={cn('sm:min-h-[460px]', fetching && 'opacity-70')} aria-busy={fetching}>
      <StackTable aria-label={label} className="sm:min-w-[50rem] sm:table-fixed">
        <StackHead>
          {columns.map((c) => (
            <StackTh key={c.header} className={cn('whitespace-normal!', c.kind === 'amount' && 'text-right')} style={{ width: widthOf(c) }}>
              {c.header}
            </StackTh>
          ))}
          <StackTh style={{ width: '3.25rem' }}>
            <span className="sr-only">{t('rows.view')}</span>
          </StackTh>
        </StackHead>
        <StackBody>
          {pending
            ? Array.from({ length: PAGE_SIZE }, (_, i) => (
                <StackRow key={i} data-testid="row-placeholder">
                  {columns.map((c) => (
                    <StackCell key={c.header} className={cn(c.kind ? ORDER[c.kind] : 'max-sm:order-5', 'max-sm:hidden')}>
                      <PlaceholderCell column={c} />
                    </StackCell>
                  ))}
                  <StackCell wide phoneOnly>
                    <span className="block h-16 animate-pulse rounded bg-canvas" />
                  </StackCell>
                  <StackCell className="max-sm:hidden" />
                </StackRow>
              ))
            : rows.map((r) => (
                <StackRow key={r.id} className="hover:bg-canvas/60" data-testid="transaction-row">
                  {columns.map((c) => (
                    <StackCell key={c.header} label={c.header} wide={c.wide} className={cn('sm:overflow-hidden', c.kind ? ORDER[c.kind] : 'max-sm:order-5')}>
                      <Cell column={c} row={r} />
                    </StackCell>
                  ))}
                  <StackCell wide className="max-sm:order-6 sm:text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={(e) => onView(r, e.currentTarget)}
                      aria-label={t('rows.viewDetailsOf', { id: String(r.id) })}
                      title={t('rows.viewDetails')}
                      className="max-sm:w-full max-sm:border max-sm:border-line"
                    >
                      <Eye className="size-4" aria-hidden="true" />
                      <span className="sm:hidden">{t('rows.viewDetails')}</span>
                    </Button>
                  </StackCell>
                </StackRow>
              ))}
        </StackBody>
      </StackTable>
    </div>
  );
});
