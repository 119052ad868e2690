import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { localCountryName } from '../../../lib/country-names.ts';
import { formatCount, paymentMethodLabel } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { formatDuration } from '../format.ts';
import { corridorLink, transactionTypeOf, type Figures } from '../links.ts';
import { overviewMessages } from '../messages.ts';
import { SectionHeading } from './section.tsx';

/**
 * Completion time: per type and corridor (country and channel), how many completed in the period and how long they
 * took, the median and the 95th percentile. The count opens the combined table of that type and corridor, succeeded
 * (the rows that completed; a row from before completion times were kept counts there and not here).
 */
export function CompletionSection({ figures }: { figures: Figures }) {
  const t = useT(overviewMessages);
  const rows = figures.reply.completion;
  return (
    <section aria-labelledby="overview-completion" className="space-y-4">
      <SectionHeading id="overview-completion" title={t('completion.title')} description={t('completion.description')} />
      <Card className="min-w-0 overflow-hidden" data-testid="completion">
        {rows.length === 0 ? (
          <p className="p-5 text-sm text-muted">{t('completion.none')}</p>
        ) : (
          <StackTable>
            <StackHead>
              <StackTh>{t('completion.type')}</StackTh>
              <StackTh>{t('completion.corridor')}</StackTh>
              <StackTh className="text-right">{t('completion.completed')}</StackTh>
              <StackTh className="text-right">{t('completion.p50')}</StackTh>
              <StackTh className="text-right">{t('completion.p95')}</StackTh>
            </StackHead>
            <StackBody>
              {rows.map((r) => (
                <StackRow key={`${r.kind}|${r.country}|${r.channel}`} data-testid="completion-row">
                  <StackCell label={t('completion.type')} className="font-medium">
                    {t(`kind.${r.kind}`)}
                  </StackCell>
                  <StackCell label={t('completion.corridor')}>
                    {t('completion.corridorName', { country: `${localCountryName(r.country)} (${r.country})`, channel: paymentMethodLabel(r.channel) })}
                  </StackCell>
                  <StackCell label={t('completion.completed')} className="tabular-nums sm:text-right">
                    <Link
                      to={corridorLink(figures.scope, 'succeeded', {
                        country: r.country,
                        paymentMethod: r.channel,
                        transactionType: transactionTypeOf(r.kind),
                      })}
                      className="text-brand-700 underline-offset-2 hover:underline"
                    >
                      {formatCount(r.count)}
                    </Link>
                  </StackCell>
                  <StackCell label={t('completion.p50')} className="tabular-nums sm:text-right">
                    <span data-testid="completion-p50">{formatDuration(r.p50Seconds)}</span>
                  </StackCell>
                  <StackCell label={t('completion.p95')} className="tabular-nums sm:text-right">
                    {formatDuration(r.p95Seconds)}
                  </StackCell>
                </StackRow>
              ))}
            </StackBody>
          </StackTable>
        )}
      </Card>
    </section>
  );
}
