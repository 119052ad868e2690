import { CalendarX2, FilterX, Inbox, SearchX } from 'lucide-react';
import type { EmptyState as Kind } from '../tables.ts';

const STATES: Record<Exclude<Kind, null>, { icon: typeof Inbox; title: string; body: string }> = {
  noData: { icon: Inbox, title: 'No transactions yet', body: 'When money moves, it shows here.' },
  noDataForId: { icon: SearchX, title: 'No transaction with this ID', body: 'Check the ID and try again. An ID search looks across all dates.' },
  noDataForFilter: { icon: FilterX, title: 'Nothing matches these filters', body: 'Try other filters, or reset them.' },
  noDataForDate: { icon: CalendarX2, title: 'Nothing in this date range', body: 'Choose a wider date range.' },
};

export function EmptyState({ kind }: { kind: Exclude<Kind, null> }) {
  const { icon: Icon, title, body } = STATES[kind];
  return (
    <div className="flex flex-col items-center gap-2 px-6 py-16 text-center" data-testid={`empty-${kind}`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-50">
        <Icon className="size-6 text-brand-700" aria-hidden="true" />
      </span>
      <p className="mt-2 font-semibold">{title}</p>
      <p className="max-w-sm text-sm text-muted">{body}</p>
    </div>
  );
}
