import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from 'react';
import { cn } from './cn.ts';
import { Th } from './table.tsx';

/**
 * A table that reads on a phone: a real table from the `sm` breakpoint up, and below it each row becomes a small
 * card whose cells carry their column's name. One DOM for both, so that assistive technology always meets a table.
 */
export function StackTable({ className, children, ...rest }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="relative sm:overflow-x-auto">
      <table className={cn('block w-full border-collapse text-left text-sm sm:table', className)} {...rest}>
        {children}
      </table>
    </div>
  );
}

export function StackHead({ children }: { children: ReactNode }) {
  return (
    <thead className="hidden sm:table-header-group">
      <tr>{children}</tr>
    </thead>
  );
}

/** A column's header, as a table's (`Th`), with the row's padding at the ends. */
export function StackTh({ className, ...rest }: HTMLAttributes<HTMLTableCellElement>) {
  return <Th className={cn('first:pl-5 last:pr-5', className)} {...rest} />;
}

export function StackBody({ children }: { children: ReactNode }) {
  return <tbody className="block sm:table-row-group">{children}</tbody>;
}

export function StackRow({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return (
    <tr
      className={cn(
        'grid grid-cols-2 gap-x-4 gap-y-3 border-b border-line px-4 py-4 last:border-b-0 sm:table-row sm:border-b-0 sm:p-0 sm:[&:last-child>td]:border-b-0',
        className,
      )}
      {...rest}
    />
  );
}

type CellProps = TdHTMLAttributes<HTMLTableCellElement> & {
  /** the column's name, shown above the value on a phone */
  label?: string;
  /** on a phone, take the card's whole width */
  wide?: boolean;
  /**
   * on a phone only: hidden from `sm` up. (A `sm:hidden` class would not do: the stylesheet puts `sm:table-cell` after
   * it, so the cell would stay and add an empty column to the table.)
   */
  phoneOnly?: boolean;
};

export function StackCell({ label, wide, phoneOnly, className, children, ...rest }: CellProps) {
  return (
    <td
      className={cn(
        'block min-w-0',
        phoneOnly ? 'sm:hidden' : 'sm:table-cell sm:border-b sm:border-line sm:px-3 sm:py-3 sm:align-middle sm:first:pl-5 sm:last:pr-5',
        wide && 'col-span-2',
        className,
      )}
      {...rest}
    >
      {label && (
        <span className="mb-0.5 block text-[11px] font-medium uppercase tracking-wide text-muted sm:hidden" data-cell-label>
          {label}
        </span>
      )}
      {children}
    </td>
  );
}
