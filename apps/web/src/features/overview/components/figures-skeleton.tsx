import type { AnalyticsKind } from '@portal/contract/analytics';
import { Card } from '../../../components/ui/card.tsx';
import { SkeletonBar } from '../../../components/ui/skeleton.tsx';
import { useT } from '../../../lib/i18n.ts';
import { overviewMessages } from '../messages.ts';
import { ChartCard, LINES } from './chart-card.tsx';
import { SectionHeading } from './section.tsx';

const KINDS = ['collections', 'payments', 'settlements'] as const satisfies readonly AnalyticsKind[];

/** A card of the figures whose content is lines of grey. */
function ListSkeleton({ title, rows }: { title?: string; rows: number }) {
  return (
    <Card className="min-w-0 overflow-hidden">
      {title && <h3 className="px-5 pb-2 pt-4 text-sm font-semibold text-ink">{title}</h3>}
      <div className={title ? 'space-y-3 px-5 pb-5' : 'space-y-3 p-5'}>
        {Array.from({ length: rows }, (_, i) => (
          <SkeletonBar key={i} className="h-5 w-full" />
        ))}
      </div>
    </Card>
  );
}

/**
 * The Overview's figures before they come: every section with its words (its title, what it shows, its cards' and
 * charts' names and legends, all in the language in force) and grey blocks where its figures will be, each block as
 * tall as what replaces it (the volume cards' lines, the charts' CHART_BOX), so that nothing moves when they come.
 * Light on purpose: the frame draws it (the page the server sends, app/layout/page-skeleton.tsx) without the
 * Overview's code or its chart library.
 */
export function FiguresSkeleton() {
  const t = useT(overviewMessages);
  const kinds = KINDS.map((k) => ({ label: t(`kind.${k}`), ...LINES[k] }));
  return (
    <div aria-busy="true" data-testid="overview-figures">
      <p className="mb-4 min-h-10 text-sm text-muted sm:min-h-5">
        <SkeletonBar className="h-5 w-full max-w-xl" />
      </p>
      <div className="space-y-8">
        <section className="space-y-4">
          <SectionHeading title={t('volumes.title')} description={t('volumes.description')} />
          <div className="grid gap-4 xl:grid-cols-3">
            {KINDS.map((k) => (
              <Card key={k} className="min-w-0 p-5">
                <h3 className="h-5 text-sm font-medium text-muted">{t(`kind.${k}`)}</h3>
                <SkeletonBar className="mt-2 h-7 w-44" />
                <SkeletonBar className="mt-1 h-5 w-28" />
                <SkeletonBar className="mt-3 h-5 w-24" />
                <SkeletonBar className="h-4 w-36" />
              </Card>
            ))}
          </div>
          <ChartCard title={t('volumes.chart')} lines={kinds} />
        </section>
        <section className="space-y-4">
          <SectionHeading title={t('success.title')} description={t('success.description')} />
          <div className="grid gap-4 xl:grid-cols-3">
            <Card className="min-w-0 p-5">
              <h3 className="h-5 text-sm font-medium text-muted">{t('success.overall')}</h3>
              <SkeletonBar className="mt-2 h-9 w-28" />
              <SkeletonBar className="mt-1 h-5 w-48" />
              <span className="mt-3 block h-4" />
            </Card>
            <ChartCard className="xl:col-span-2" title={t('success.chart')} lines={[{ label: t('success.series'), ...LINES.success }]} />
          </div>
          <div className="grid items-start gap-4 xl:grid-cols-2">
            <ListSkeleton title={t('breakdown.country')} rows={4} />
            <ListSkeleton title={t('breakdown.channel')} rows={2} />
            <ListSkeleton title={t('breakdown.operator')} rows={4} />
            <ListSkeleton title={t('reasons.title')} rows={4} />
          </div>
        </section>
        <section className="space-y-4">
          <SectionHeading title={t('balance.title')} description={t('balance.description', { currency: 'USD', step: t('step.day') })} />
          <div className="grid gap-4 xl:grid-cols-3">
            <Card className="min-w-0 space-y-4 p-5">
              {[t('balance.now'), t('balance.pendingWithdrawals'), t('balance.pendingDisbursements')].map((label, i) => (
                <div key={label}>
                  <p className="h-5 text-sm text-muted">{label}</p>
                  <SkeletonBar className={i === 0 ? 'mt-1 h-8 w-44' : 'h-6 w-28'} />
                </div>
              ))}
            </Card>
            <ChartCard className="xl:col-span-2" title={t('balance.chart')} lines={[{ label: t('balance.series'), ...LINES.balance }]} />
          </div>
        </section>
        <section className="space-y-4">
          <SectionHeading title={t('completion.title')} description={t('completion.description')} />
          <ListSkeleton rows={4} />
        </section>
      </div>
    </div>
  );
}
