import { ArrowRight, CalendarX2, FilterX, Inbox, SearchX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import type { SearchTable } from '@portal/contract/transactions';
import { tableLink, type EmptyState as Kind } from '../tables.ts';

const STATES: Record<Exclude<Kind, null>, { icon: typeof Inbox; title: string; body: string }> = {
  noData: { icon: Inbox, title: 'No transactions yet', body: 'When money moves, it shows here.' },
  noDataForId: { icon: SearchX, title: 'No transaction with this ID', body: 'Check the ID and try again. An ID search looks across all dates.' },
  noDataForFilter: { icon: FilterX, title: 'Nothing matches these filters', body: 'Try other filters, or reset them.' },
  noDataForDate: { icon: CalendarX2, title: 'Nothing in this date range', body: 'Choose a wider date range.' },
  invalidFilter: { icon: TriangleAlert, title: 'Fix the filters to see transactions', body: 'Nothing is searched until the filters above are valid.' },
};

type Props = {
  kind: Exclude<Kind, null>;
  /** for invalidFilter: why the filters cannot be searched */
  reason?: string;
  /** an id searched here without a match: the partner's other tables that hold it, and the id */
  foundIn?: { tables: SearchTable[]; id: string };
};

export function EmptyState({ kind, reason, foundIn }: Props) {
  const elsewhere = foundIn && foundIn.tables.length > 0 ? foundIn.tables.map((t) => tableLink(t, foundIn.id)) : undefined;
  const { icon: Icon, title, body } = STATES[kind];
  return (
    <div className="flex flex-col items-center gap-2 px-6 py-16 text-center" data-testid={`empty-${kind}`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-50">
        <Icon className="size-6 text-brand-700" aria-hidden="true" />
      </span>
      {elsewhere ? (
        <>
          <p className="mt-2 font-semibold" role="status">
            Not in this table. Found in {elsewhere.map((e) => e.label).join(' and ')}
          </p>
          <div className="mt-2 flex flex-wrap justify-center gap-2">
            {elsewhere.map((e) => (
              <Link
                key={e.to}
                to={e.to}
                className="inline-flex h-9 items-center gap-2 rounded-lg bg-brand-800 px-3 text-sm font-medium text-white hover:bg-brand-900"
              >
                Open in {e.label}
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
            ))}
          </div>
        </>
      ) : (
        <>
          <p className="mt-2 font-semibold">{title}</p>
          <p className="max-w-sm text-sm text-muted">{kind === 'invalidFilter' && reason ? `${reason} ${body}` : body}</p>
        </>
      )}
    </div>
  );
}
