import { Eye } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { PAGE_SIZE } from '../api/search.ts';
import type { Column, Row } from '../tables.ts';

type Props = { columns: Column[]; rows: Row[]; pending: boolean; fetching: boolean; onView(row: Row): void };

/** The rows of one page (placeholders while the first loads), the id cut to 8 characters, a View button each. */
export function TransactionRows({ columns, rows, pending, fetching, onView }: Props) {
  return (
    <div className={cn('min-h-[460px]', fetching && 'opacity-70')} aria-busy={fetching}>
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
          {pending
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
                    <Button variant="ghost" size="sm" onClick={() => onView(r)} aria-label={`View ${r.id}`} title="View">
                      <Eye className="size-4" aria-hidden="true" />
                    </Button>
                  </Td>
                </tr>
              ))}
        </tbody>
      </Table>
    </div>
  );
}
