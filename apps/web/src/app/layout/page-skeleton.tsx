import { matchPath } from 'react-router';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { CardSkeletons, CardsSkeleton, SkeletonBar } from '../../components/ui/skeleton.tsx';
import { PAGE_TEXTS } from '../../lib/page-texts.ts';
import { SettingsSkeleton } from '../../features/settings/components/settings-skeleton.tsx';
import { OverviewSkeleton } from '../../features/overview/components/overview-skeleton.tsx';
import { ROUTES } from '../routes.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

type Shape = 'tabs-table' | 'table' | 'cards' | 'sections' | 'settings' | 'overview';

/** The screens drawn ahead of their data: their header as it will be, and the shape of what comes under it. */
const SKELETONS: { path: string; text?: { title: string; description: string }; shape: Shape }[] = [
  { path: ROUTES.overview.path, text: PAGE_TEXTS.overview, shape: 'overview' },
  { path: ROUTES.transactions.path, text: PAGE_TEXTS.transactions, shape: 'tabs-table' },
  { path: ROUTES.trades.path, text: PAGE_TEXTS.trades, shape: 'table' },
  { path: ROUTES.initiatePayment.path, shape: 'sections' },
  { path: ROUTES.payments.path, text: PAGE_TEXTS.payments, shape: 'table' },
  { path: ROUTES.balance.path, text: PAGE_TEXTS.balance, shape: 'cards' },
  { path: ROUTES.settings.path, text: PAGE_TEXTS.settings, shape: 'settings' },
];

/** Ten rows, as the table draws them while its first page loads: lines from `sm` up, a card each below. */
function TableSkeleton() {
  return (
    <Card>
      <div className="flex flex-wrap gap-3 border-b border-line p-4">
        <SkeletonBar className="h-10 w-full sm:w-64" />
        <SkeletonBar className="h-10 w-40 max-sm:hidden" />
        <SkeletonBar className="h-10 w-32 max-sm:hidden sm:ml-auto" />
      </div>
      <ul className="sm:min-h-[460px]">
        {Array.from({ length: 10 }, (_, i) => (
          <li key={i} className="flex gap-6 border-b border-line px-4 py-4 last:border-b-0">
            <SkeletonBar className="h-16 w-full sm:hidden" />
            <SkeletonBar className="h-4 w-24 max-sm:hidden" />
            <SkeletonBar className="h-4 w-28 max-sm:hidden" />
            <SkeletonBar className="h-4 flex-1 max-sm:hidden" />
            <SkeletonBar className="h-4 w-24 max-sm:hidden" />
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Body({ shape }: { shape: Shape }) {
  switch (shape) {
    case 'tabs-table':
      return (
        <>
          <div className="mb-4 flex gap-4 border-b border-line pb-2.5 pt-2.5">
            {Array.from({ length: 4 }, (_, i) => (
              <SkeletonBar key={i} className="h-4 flex-1 bg-line sm:w-24 sm:flex-none" />
            ))}
          </div>
          <TableSkeleton />
        </>
      );
    case 'table':
      return <TableSkeleton />;
    case 'cards':
      return <CardsSkeleton />;
    case 'settings':
      return <SettingsSkeleton />;
    case 'overview':
      return <OverviewSkeleton />;
    case 'sections':
      return <CardSkeletons count={3} className="space-y-6" bars={['h-5 w-48', 'h-4 w-full max-w-md', 'h-10 w-full max-w-sm']} />;
  }
}

/**
 * What the frame draws in place of a screen until the start data has arrived: the screen's header as it will be and
 * the shape of its content. The screen replaces it at once (with its banners above), so nothing moves.
 */
export function PageSkeleton({ pathname }: { pathname: string }) {
  const t = useT(commonMessages);
  const match = SKELETONS.find((s) => matchPath(s.path, pathname));
  return (
    <div aria-busy="true" data-testid="page-skeleton">
      <span role="status" className="sr-only">
        {t('loading')}
      </span>
      {match?.text ? <PageHeader title={match.text.title} description={match.text.description} /> : <SkeletonBar className="mb-6 h-8 w-48" />}
      <Body shape={match?.shape ?? 'sections'} />
    </div>
  );
}
