import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { successRate, type AnalyticsReply } from '@portal/contract/analytics';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { localCountryName } from '../../../lib/country-names.ts';
import { formatCount, formatPercent, paymentMethodLabel, statusLabel } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { stepName, stepTick } from '../format.ts';
import { corridorLink, stepDays, type Figures, type Scope } from '../links.ts';
import { overviewMessages } from '../messages.ts';
import { ChartCard, LINES } from './chart-card.tsx';
import { LineChart, type ChartData } from './line-chart.tsx';
import { SectionHeading, ShareBar } from './section.tsx';

type Breakdown = AnalyticsReply['success']['byCountry'];
const RATE_RANGE: [number, number] = [0, 100];
const percentAxis = (v: number) => formatPercent(v / 100, 0);

/** A count that opens its table, or the count alone when there is no table to open. */
function CountLink({ to, count, testId }: { to: string | undefined; count: number; testId?: string }) {
  if (!to) return <span data-testid={testId}>{formatCount(count)}</span>;
  return (
    <Link to={to} className="text-brand-700 underline-offset-2 hover:underline" data-testid={testId}>
      {formatCount(count)}
    </Link>
  );
}

/** The period's success rate: the rate, succeeded and failed (each opening the combined table so filtered). */
function OverallCard({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const success = figures.reply.success;
  const rate = successRate(success);
  // every collection and payment of the period, ended or not (each has a payment method, or none: counted under '')
  const total = success.byChannel.reduce((n, c) => n + c.count, 0);
  return (
    <Card className="min-w-0 p-5" data-testid="success-overall">
      <h3 className="h-5 text-sm font-medium text-muted">{t('success.overall')}</h3>
      <p className="mt-2 h-9 text-3xl font-semibold leading-9 tabular-nums text-ink" data-testid="success-rate">
        {rate === undefined ? '–' : formatPercent(rate)}
      </p>
      <p className="mt-1 flex h-5 flex-wrap gap-x-3 text-sm">
        <Link to={corridorLink(figures.scope, 'succeeded')} className="text-brand-700 underline-offset-2 hover:underline" data-testid="success-succeeded">
          {t('success.succeeded', { count: success.succeeded })}
        </Link>
        <Link to={corridorLink(figures.scope, 'failed')} className="text-brand-700 underline-offset-2 hover:underline" data-testid="success-failed">
          {t('success.failed', { count: success.finished - success.succeeded })}
        </Link>
      </p>
      <p className="mt-3 h-4 text-xs leading-4 text-muted">
        {rate === undefined ? t('success.noneEnded') : t('success.underWay', { count: Math.max(0, total - success.finished) })}
      </p>
      {/* the same counts for the eye: succeeded, failed and under way side by side */}
      {total > 0 && (
        <span aria-hidden="true" className="mt-4 flex h-2 overflow-hidden rounded-full bg-canvas ring-1 ring-line">
          <span className="h-full bg-brand-600" style={{ width: `${(success.succeeded / total) * 100}%` }} />
          <span className="h-full bg-danger" style={{ width: `${((success.finished - success.succeeded) / total) * 100}%` }} />
        </span>
      )}
    </Card>
  );
}

/** The success rate of each step as a table, its succeeded and failed each opening the combined table of its days. */
function SuccessTable({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const { reply, scope } = figures;
  const days = stepDays(reply);
  return (
    <StackTable>
      <caption className="sr-only">{t('success.chart')}</caption>
      <StackHead>
        <StackTh>{t(`column.${reply.bucket}`)}</StackTh>
        <StackTh className="text-right">{t('column.rate')}</StackTh>
        <StackTh className="text-right">{t('column.succeeded')}</StackTh>
        <StackTh className="text-right">{t('column.failed')}</StackTh>
      </StackHead>
      <StackBody>
        {reply.series.map((step, i) => {
          const rate = successRate(step.success);
          const stepScope = { ...scope, ...days[i]! };
          return (
            <StackRow key={step.start}>
              <StackCell wide className="font-medium">
                {stepName(reply.bucket, step)}
              </StackCell>
              <StackCell label={t('column.rate')} className="tabular-nums sm:text-right">
                {rate === undefined ? t('table.none') : formatPercent(rate)}
              </StackCell>
              <StackCell label={t('column.succeeded')} className="tabular-nums sm:text-right">
                <CountLink to={corridorLink(stepScope, 'succeeded')} count={step.success.succeeded} />
              </StackCell>
              <StackCell label={t('column.failed')} className="tabular-nums sm:text-right">
                <CountLink to={corridorLink(stepScope, 'failed')} count={step.success.finished - step.success.succeeded} />
              </StackCell>
            </StackRow>
          );
        })}
      </StackBody>
    </StackTable>
  );
}

/**
 * One breakdown of the success rate (by country, channel or operator): per key its rate, and its succeeded, failed
 * and all rows, each opening the combined table narrowed to the key, when the tables can filter by it (`filter`).
 */
function BreakdownCard({
  title,
  column,
  rows,
  nameOf,
  filter,
  scope,
  note,
  limit,
  testId,
}: {
  title: string;
  column: string;
  rows: Breakdown;
  nameOf: (key: string) => string;
  filter?: (key: string) => { country?: string; paymentMethod?: string };
  scope: Scope;
  note?: string;
  /** how many rows show until all are asked for (the most frequent first) */
  limit?: number;
  testId: string;
}) {
  const t = useT(overviewMessages);
  const [all, setAll] = useState(false);
  const shown = limit && !all ? rows.slice(0, limit) : rows;
  const link = (key: string, outcome?: 'succeeded' | 'failed') => (filter ? corridorLink(scope, outcome, filter(key)) : undefined);
  return (
    <Card className="min-w-0 overflow-hidden" data-testid={testId}>
      <h3 className="px-5 pb-2 pt-4 text-sm font-semibold text-ink">{title}</h3>
      {rows.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-muted">{t('breakdown.none')}</p>
      ) : (
        <StackTable>
          <StackHead>
            <StackTh>{column}</StackTh>
            <StackTh>{t('column.rate')}</StackTh>
            <StackTh className="text-right">{t('column.succeeded')}</StackTh>
            <StackTh className="text-right">{t('column.failed')}</StackTh>
            <StackTh className="text-right">{t('column.all')}</StackTh>
          </StackHead>
          <StackBody>
            {shown.map((r) => (
              <StackRow key={r.key} data-testid="breakdown-row">
                <StackCell wide className="font-medium">
                  {nameOf(r.key)}
                </StackCell>
                <StackCell label={t('column.rate')}>
                  <ShareBar share={successRate(r)} />
                </StackCell>
                <StackCell label={t('column.succeeded')} className="tabular-nums sm:text-right">
                  <CountLink to={link(r.key, 'succeeded')} count={r.succeeded} />
                </StackCell>
                <StackCell label={t('column.failed')} className="tabular-nums sm:text-right">
                  <CountLink to={link(r.key, 'failed')} count={r.finished - r.succeeded} />
                </StackCell>
                <StackCell label={t('column.all')} className="tabular-nums sm:text-right">
                  <CountLink to={link(r.key)} count={r.count} testId="breakdown-all" />
                </StackCell>
              </StackRow>
            ))}
          </StackBody>
        </StackTable>
      )}
      {limit !== undefined && rows.length > limit && (
        <p className="border-t border-line px-5 py-2">
          <Button variant="ghost" size="sm" aria-expanded={all} onClick={() => setAll(!all)}>
            {all ? t('breakdown.fewer') : t('breakdown.all', { count: rows.length })}
          </Button>
        </p>
      )}
      {note && rows.length > 0 && <p className="border-t border-line px-5 py-3 text-xs text-muted">{note}</p>}
    </Card>
  );
}

/** The failed ones' reasons, the most frequent first, with their share of the failed; the failed ones open the combined table. */
function ReasonsCard({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const reasons = figures.reply.success.failureReasons;
  const failed = reasons.reduce((n, r) => n + r.count, 0);
  return (
    <Card className="min-w-0 overflow-hidden" data-testid="failure-reasons">
      <div className="px-5 pb-2 pt-4">
        <h3 className="text-sm font-semibold text-ink">{t('reasons.title')}</h3>
        <p className="mt-0.5 text-xs text-muted">{t('reasons.description')}</p>
      </div>
      {reasons.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-muted">{t('reasons.none')}</p>
      ) : (
        <>
          <StackTable>
            <StackHead>
              <StackTh>{t('reasons.reason')}</StackTh>
              <StackTh className="text-right">{t('reasons.count')}</StackTh>
              <StackTh>{t('reasons.share')}</StackTh>
            </StackHead>
            <StackBody>
              {reasons.map((r) => (
                <StackRow key={`${r.reason ?? ''}|${r.status ?? ''}`}>
                  {/* a failure without a recorded reason is told by its status */}
                  <StackCell wide className="whitespace-normal font-medium">
                    {r.reason ?? statusLabel(r.status)}
                  </StackCell>
                  <StackCell label={t('reasons.count')} className="tabular-nums sm:text-right">
                    {formatCount(r.count)}
                  </StackCell>
                  <StackCell label={t('reasons.share')}>
                    <ShareBar share={failed > 0 ? r.count / failed : undefined} tone="danger" />
                  </StackCell>
                </StackRow>
              ))}
            </StackBody>
          </StackTable>
          <p className="border-t border-line px-5 py-3 text-sm">
            <Link to={corridorLink(figures.scope, 'failed')} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {t('reasons.open')}
            </Link>
          </p>
        </>
      )}
    </Card>
  );
}

/**
 * Success rate: of the collections and payments that ended, the share that succeeded: the period's, each step's (a
 * chart and its table), by country, channel and operator, and why the others failed.
 */
export function SuccessSection({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const reply = figures.reply;
  const line = { label: t('success.series'), ...LINES.success };
  const data = useMemo<ChartData>(
    () => ({
      ticks: reply.series.map((s) => stepTick(reply.bucket, s)),
      names: reply.series.map((s) => stepName(reply.bucket, s)),
      series: [
        {
          ...line,
          values: reply.series.map((s) => {
            const rate = successRate(s.success);
            return rate === undefined ? null : rate * 100;
          }),
        },
      ],
    }),
    // the line's name follows the language, which draws the screen anew
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [reply],
  );
  const scope = figures.scope;
  const success = reply.success;
  const breakdowns: { key: string; card: ReactNode }[] = [
    {
      key: 'country',
      card: (
        <BreakdownCard
          title={t('breakdown.country')}
          column={t('column.country')}
          rows={success.byCountry}
          nameOf={(code) => `${localCountryName(code)} (${code})`}
          filter={(country) => ({ country })}
          scope={scope}
          testId="by-country"
        />
      ),
    },
    {
      key: 'channel',
      card: (
        <BreakdownCard
          title={t('breakdown.channel')}
          column={t('column.channel')}
          rows={success.byChannel}
          nameOf={paymentMethodLabel}
          filter={(paymentMethod) => ({ paymentMethod })}
          scope={scope}
          testId="by-channel"
        />
      ),
    },
    {
      key: 'operator',
      card: (
        <BreakdownCard
          title={t('breakdown.operator')}
          column={t('column.operator')}
          rows={success.byOperator}
          nameOf={(name) => name || t('operator.none')}
          scope={scope}
          note={t('breakdown.operatorNote')}
          limit={8}
          testId="by-operator"
        />
      ),
    },
    { key: 'reasons', card: <ReasonsCard figures={figures} /> },
  ];
  return (
    <section aria-labelledby="overview-success" className="space-y-4">
      <SectionHeading id="overview-success" title={t('success.title')} description={t('success.description')} />
      <div className="grid gap-4 xl:grid-cols-3">
        <OverallCard figures={figures} />
        <ChartCard
          className="xl:col-span-2"
          title={t('success.chart')}
          lines={[line]}
          chart={
            <LineChart
              data={data}
              label={t('success.chartLabel', { step: t(`step.${reply.bucket}`) })}
              format={(v) => formatPercent(v / 100)}
              formatAxis={percentAxis}
              range={RATE_RANGE}
            />
          }
          table={<SuccessTable figures={figures} />}
        />
      </div>
      <div className="grid items-start gap-4 xl:grid-cols-2">
        {breakdowns.map((b) => (
          <div key={b.key} className="min-w-0">
            {b.card}
          </div>
        ))}
      </div>
    </section>
  );
}
