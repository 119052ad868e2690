import { ArrowRight, CalendarX2, FilterX, Inbox, SearchX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import type { SearchTable } from '@portal/contract/transactions';
import { useT } from '../../../lib/i18n.ts';
import { transactionsMessages, type TransactionsKey } from '../messages.ts';
import { tableLink, type EmptyState as Kind } from '../tables.ts';

const STATES: Record<Exclude<Kind, null>, { icon: typeof Inbox; title: TransactionsKey; body: TransactionsKey }> = {
  noData: { icon: Inbox, title: 'empty.noData.title', body: 'empty.noData.body' },
  noDataForId: { icon: SearchX, title: 'empty.noDataForId.title', body: 'empty.noDataForId.body' },
  noDataForFilter: { icon: FilterX, title: 'empty.noDataForFilter.title', body: 'empty.noDataForFilter.body' },
  noDataForDate: { icon: CalendarX2, title: 'empty.noDataForDate.title', body: 'empty.noDataForDate.body' },
  invalidFilter: { icon: TriangleAlert, title: 'empty.invalidFilter.title', body: 'empty.invalidFilter.body' },
};

type Props = {
  kind: Exclude<Kind, null>;
  /** for invalidFilter: why the filters cannot be searched */
  reason?: string;
  /** an id searched here without a match: the partner's other tables that hold it, and the id */
  foundIn?: { tables: SearchTable[]; id: string };
};

export function EmptyState({ kind, reason, foundIn }: Props) {
  const t = useT(transactionsMessages);
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
            {t('empty.foundIn', {
              tables: elsewhere.map((e) => e.label).reduce((list, item) => t('empty.and', { list, item })),
            })}
          </p>
          <div className="mt-2 flex flex-wrap justify-center gap-2">
            {elsewhere.map((e) => (
              <Link
                key={e.to}
                to={e.to}
                className="inline-flex h-9 items-center gap-2 rounded-lg bg-brand-800 px-3 text-sm font-medium text-white hover:bg-brand-900"
              >
                {t('empty.openIn', { table: e.label })}
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
            ))}
          </div>
        </>
      ) : (
        <>
          <p className="mt-2 font-semibold">{t(title)}</p>
          <p className="max-w-sm text-sm text-muted">{kind === 'invalidFilter' && reason ? `${reason} ${t(body)}` : t(body)}</p>
        </>
      )}
    </div>
  );
}
