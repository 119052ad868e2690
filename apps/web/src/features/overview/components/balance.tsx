import { useMemo } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { formatCompact, stepName, stepTick } from '../format.ts';
import type { Figures } from '../links.ts';
import { overviewMessages } from '../messages.ts';
import { ChartCard, LINES } from './chart-card.tsx';
import { LineChart, type ChartData } from './line-chart.tsx';
import { SectionHeading } from './section.tsx';

/** A figure of the balance card: its name and its amount. */
function Amount({ label, value, big, testId }: { label: string; value: string; big?: boolean; testId: string }) {
  return (
    <div>
      <dt className="h-5 text-sm text-muted">{label}</dt>
      <dd
        className={
          big ? 'mt-1 h-8 whitespace-nowrap text-2xl font-semibold leading-8 tabular-nums' : 'h-6 whitespace-nowrap font-medium leading-6 tabular-nums'
        }
        data-testid={testId}
      >
        {value}
      </dd>
    </div>
  );
}

/** The balance at the end of each step as a table. */
function BalanceTable({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const { reply } = figures;
  return (
    <StackTable>
      <caption className="sr-only">{t('balance.chart')}</caption>
      <StackHead>
        <StackTh>{t(`column.${reply.bucket}`)}</StackTh>
        <StackTh className="text-right">{t('balance.series')}</StackTh>
      </StackHead>
      <StackBody>
        {reply.balance.points.map((p, i) => (
          <StackRow key={p.at}>
            <StackCell wide className="font-medium">
              {reply.series[i] ? stepName(reply.bucket, reply.series[i]) : p.at}
            </StackCell>
            <StackCell label={t('balance.series')} wide className="tabular-nums sm:text-right">
              {formatMoney(p.balance, reply.balance.currency)}
            </StackCell>
          </StackRow>
        ))}
      </StackBody>
    </StackTable>
  );
}

/** Balance: what the wallet holds now and what is reserved, and its balance at the end of each step. */
export function BalanceSection({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const reply = figures.reply;
  const balance = reply.balance;
  const line = { label: t('balance.series'), ...LINES.balance };
  const data = useMemo<ChartData>(() => {
    const steps = reply.series.slice(0, reply.balance.points.length);
    return {
      ticks: steps.map((s) => stepTick(reply.bucket, s)),
      names: steps.map((s) => stepName(reply.bucket, s)),
      series: [{ ...line, values: reply.balance.points.slice(0, steps.length).map((p) => Number(p.balance)) }],
    };
    // the line's name follows the language, which draws the screen anew
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reply]);
  const money = (amount: string) => formatMoney(amount, balance.currency);
  return (
    <section aria-labelledby="overview-balance" className="space-y-4">
      <SectionHeading
        id="overview-balance"
        title={t('balance.title')}
        description={t('balance.description', { currency: balance.currency, step: t(`step.${reply.bucket}`) })}
      />
      <div className="grid gap-4 xl:grid-cols-3">
        <Card className="min-w-0 p-5" data-testid="balance-now">
          <dl className="space-y-4">
            <Amount label={t('balance.now')} value={money(balance.current)} big testId="balance-current" />
            <Amount label={t('balance.pendingWithdrawals')} value={money(balance.pending.withdrawals)} testId="balance-pending-withdrawals" />
            <Amount label={t('balance.pendingDisbursements')} value={money(balance.pending.disbursements)} testId="balance-pending-disbursements" />
          </dl>
          <p className="mt-4 h-5 text-sm">
            <Link to="/balance" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {t('balance.open')}
            </Link>
          </p>
        </Card>
        <ChartCard
          className="xl:col-span-2"
          title={t('balance.chart')}
          lines={[line]}
          chart={
            <LineChart
              data={data}
              label={t('balance.chartLabel', { step: t(`step.${reply.bucket}`) })}
              format={(v) => formatMoney(String(v), reply.balance.currency)}
              formatAxis={formatCompact}
            />
          }
          table={<BalanceTable figures={figures} />}
        />
      </div>
    </section>
  );
}
