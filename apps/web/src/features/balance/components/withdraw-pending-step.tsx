import { Clock } from 'lucide-react';
import { WITHDRAWAL_PROCESSING_MINUTES, type Settlement } from '@portal/contract/settlements';
import { Badge } from '../../../components/ui/badge.tsx';
import { formatCrypto, formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { balanceMessages } from '../messages.ts';
import { SummaryRow as Row } from './summary-row.tsx';

/** The withdrawal asked for: on its way, how long it takes, what was taken from the balance and its reference. */
export function WithdrawPendingStep({ done }: { done: Settlement }) {
  const t = useT(balanceMessages);
  return (
    <div className="space-y-4 text-center">
      <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Clock className="size-6" aria-hidden="true" />
      </div>
      <div>
        <p className="text-lg font-semibold" data-testid="withdrawal-pending">
          {t('withdrawDialog.onItsWay', { amount: formatCrypto(done.cryptoAmount, done.cryptoCurrency) })}
        </p>
        <p className="mt-1 text-sm text-muted">
          {t('withdrawDialog.processing', { min: WITHDRAWAL_PROCESSING_MINUTES.min, max: WITHDRAWAL_PROCESSING_MINUTES.max })}
        </p>
      </div>
      <dl className="divide-y divide-line rounded-lg border border-line px-4 text-left">
        <Row label={t('withdrawDialog.status')} value={<Badge tone="warning">{t('withdrawDialog.pending')}</Badge>} />
        <Row label={t('withdrawDialog.taken')} value={<span className="whitespace-nowrap">{formatMoney(done.amount, 'USD')}</span>} />
        <Row label={t('withdrawDialog.reference')} value={<span className="font-mono text-xs">{done.id}</span>} />
      </dl>
    </div>
  );
}
