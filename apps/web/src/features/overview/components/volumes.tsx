import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ANALYTICS_KINDS, type AnalyticsKind } from '@portal/contract/analytics';
import { Card } from '../../../components/ui/card.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { changeOf, changeText, formatCompact, stepName, stepTick, type Change } from '../format.ts';
import { stepDays, volumeLink, type Figures } from '../links.ts';
import { overviewMessages } from '../messages.ts';
import { ChartCard, LINES } from './chart-card.tsx';
import { LineChart, type ChartData } from './line-chart.tsx';
import { SectionHeading } from './section.tsx';

/** The direction of a change, drawn beside its words (which say it too). */
function ChangeIcon({ kind }: { kind: Change['kind'] }) {
  const className = 'size-4 shrink-0';
  if (kind === 'up' || kind === 'new') return <ArrowUpRight className={className} aria-hidden="true" />;
  if (kind === 'down') return <ArrowDownRight className={className} aria-hidden="true" />;
  return <Minus className={className} aria-hidden="true" />;
}

/** A type's volume of the period: its amount and count (one link to its table), and how it moved against the period before. */
function VolumeCard({ kind, figures }: { kind: AnalyticsKind; figures: Figures }) {
  const t = useT(overviewMessages);
  const totals = figures.reply.totals[kind];
  const currency = figures.reply.currency;
  const change = changeOf(Number(totals.current.amount), Number(totals.previous.amount));
  return (
    <Card className="min-w-0 p-5" data-testid={`volume-${kind}`}>
      <h3 className="h-5 text-sm font-medium text-muted">{t(`kind.${kind}`)}</h3>
      <Link to={volumeLink(kind, figures.scope)} className="group mt-2 block w-fit max-w-full rounded" data-testid="volume-link">
        <span className="block h-7 whitespace-nowrap text-xl font-semibold leading-7 tabular-nums text-ink group-hover:underline" data-testid="volume-amount">
          {formatMoney(totals.current.amount, currency)}
        </span>
        <span className="mt-1 block h-5 text-sm text-brand-700 underline-offset-2 group-hover:underline" data-testid="volume-count">
          {t('volumes.succeeded', { count: totals.current.count })}
        </span>
      </Link>
      <p className="mt-3 flex h-5 items-center gap-1 text-xs font-medium text-ink" data-testid="volume-change">
        <ChangeIcon kind={change.kind} />
        {changeText(change)}
      </p>
      <p className="h-4 text-xs leading-4 text-muted">{t('change.previous', { amount: formatMoney(totals.previous.amount, currency) })}</p>
    </Card>
  );
}

/** The steps of the volumes as a table: per step, each type's count and amount, each opening its table for those days. */
function VolumesTable({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const { reply, scope } = figures;
  const days = stepDays(reply);
  return (
    <StackTable>
      <caption className="sr-only">{t('volumes.chart')}</caption>
      <StackHead>
        <StackTh>{t(`column.${reply.bucket}`)}</StackTh>
        {ANALYTICS_KINDS.map((k) => (
          <StackTh key={k} className="text-right">
            {t(`kind.${k}`)}
          </StackTh>
        ))}
      </StackHead>
      <StackBody>
        {reply.series.map((step, i) => (
          <StackRow key={step.start}>
            <StackCell wide className="font-medium">
              {stepName(reply.bucket, step)}
            </StackCell>
            {ANALYTICS_KINDS.map((k) => (
              <StackCell key={k} label={t(`kind.${k}`)} className="tabular-nums sm:text-right">
                <Link to={volumeLink(k, { ...scope, ...days[i]! })} className="group inline-block text-brand-700">
                  <span className="block whitespace-nowrap group-hover:underline">{formatMoney(step.volumes[k].amount, reply.currency)}</span>
                  <span className="block whitespace-nowrap text-xs text-muted">{t('volumes.succeeded', { count: step.volumes[k].count })}</span>
                </Link>
              </StackCell>
            ))}
          </StackRow>
        ))}
      </StackBody>
    </StackTable>
  );
}

/** Volumes: the three types' cards, then their amounts over time (a line each). */
export function VolumesSection({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const lines = ANALYTICS_KINDS.map((k) => ({ label: t(`kind.${k}`), ...LINES[k] }));
  const reply = figures.reply;
  const data = useMemo<ChartData>(
    () => ({
      ticks: reply.series.map((s) => stepTick(reply.bucket, s)),
      names: reply.series.map((s) => stepName(reply.bucket, s)),
      series: ANALYTICS_KINDS.map((k, i) => ({ ...lines[i]!, values: reply.series.map((s) => Number(s.volumes[k].amount)) })),
    }),
    // the lines' names follow the language, which draws the screen anew
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [reply],
  );
  return (
    <section aria-labelledby="overview-volumes" className="space-y-4">
      <SectionHeading id="overview-volumes" title={t('volumes.title')} description={t('volumes.description')} />
      <div className="grid gap-4 xl:grid-cols-3">
        {ANALYTICS_KINDS.map((k) => (
          <VolumeCard key={k} kind={k} figures={figures} />
        ))}
      </div>
      <ChartCard
        title={t('volumes.chart')}
        lines={lines}
        chart={
          <LineChart
            data={data}
            label={t('volumes.chartLabel', { step: t(`step.${reply.bucket}`) })}
            format={(v) => formatMoney(String(v), reply.currency)}
            formatAxis={formatCompact}
          />
        }
        table={<VolumesTable figures={figures} />}
      />
    </section>
  );
}
