import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './cn.ts';

export function Table({ className, ...rest }: HTMLAttributes<HTMLTableElement>) {
  // relative: absolutely placed content (screen-reader text) stays inside the scroll box
  return (
    <div className="relative overflow-x-auto">
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...rest} />
    </div>
  );
}
export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn('whitespace-nowrap border-b border-line px-3 py-3 text-xs font-medium uppercase tracking-wide text-muted', className)}
      {...rest}
    />
  );
}
export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('whitespace-nowrap border-b border-line px-3 py-3 text-ink', className)} {...rest} />;
}
