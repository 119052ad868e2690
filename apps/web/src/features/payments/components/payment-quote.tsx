import type { ReactNode } from 'react';
import type { PaymentQuote } from '@portal/contract/payments';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { formatAmount, formatRate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { paymentsMessages } from '../messages.ts';

function QuoteRow({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={cn('flex justify-between gap-4 py-1.5 text-sm', strong && 'border-t border-line pt-2.5 font-semibold')}>
      <dt className={strong ? 'text-ink' : 'text-muted'}>{label}</dt>
      <dd className="whitespace-nowrap text-right tabular-nums text-ink">{children}</dd>
    </div>
  );
}

/** The quote of a payment before it is confirmed: amount, rate, the amount in USD, the fee and what it takes or brings. */
export function PaymentQuoteSummary({
  quote: q,
  disbursing,
  pending,
  canInitiate,
  onEdit,
  onConfirm,
}: {
  quote: PaymentQuote;
  disbursing: boolean;
  pending: boolean;
  canInitiate: boolean;
  onEdit: () => void;
  onConfirm: () => void;
}) {
  const t = useT(paymentsMessages);
  return (
    <section aria-label={t('quote.label')} className="mt-5 rounded-lg border border-line bg-canvas p-4">
      <h2 className="text-sm font-semibold text-ink">{disbursing ? t('quote.payOut') : t('quote.collect')}</h2>
      <dl className="mt-2">
        <QuoteRow label={t('quote.amount')}>{formatAmount(q.amount, q.currency)}</QuoteRow>
        <QuoteRow label={t('quote.rate')}>{formatRate(q.rate, 'USD', q.currency)}</QuoteRow>
        <QuoteRow label={t('quote.inUsd')}>{formatAmount(q.amountUsd, 'USD')}</QuoteRow>
        <QuoteRow label={t('quote.fee')}>{formatAmount(q.feeUsd, 'USD')}</QuoteRow>
        <QuoteRow label={disbursing ? t('quote.taken') : t('quote.credited')} strong>
          {formatAmount(q.totalUsd, 'USD')}
        </QuoteRow>
      </dl>
      <p className="mt-2 text-xs text-muted">{t('quote.balance', { amount: formatAmount(q.balanceUsd, 'USD') })}</p>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onEdit} disabled={pending}>
          {t('quote.edit')}
        </Button>
        <Button onClick={onConfirm} loading={pending} disabled={!canInitiate}>
          {disbursing ? t('quote.confirmPayout') : t('quote.confirmCollection')}
        </Button>
      </div>
    </section>
  );
}
