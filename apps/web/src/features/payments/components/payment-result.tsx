import { Link } from 'react-router';
import type { Payment } from '@portal/contract/payments';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { formatAmount, formatDate, statusLabel } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { moneyOutcome, paymentMovement } from '../../../lib/money-outcome.ts';
import { usePayment } from '../api/payment.ts';
import { paymentsMessages } from '../messages.ts';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-0.5 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium text-ink">{children}</dd>
    </div>
  );
}

/** The payment just made, kept up to date by the live event stream: status, timeline, and a collection's instructions. */
export function PaymentResult({ created, onAnother }: { created: Payment; onAnother: () => void }) {
  const t = useT(paymentsMessages);
  const live = usePayment(created.kind, created.id);
  const p = live.data?.payment ?? created;
  const noun = p.kind === 'collection' ? t('result.collection') : t('result.disbursement');
  const outcome = moneyOutcome(paymentMovement(p));
  // the payer's instructions only while they can still be followed
  const i = outcome.payerInstructions ? p.instructions : null;
  return (
    <Card className="p-5" aria-label={`${noun} ${p.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-ink">{noun}</h2>
        <span data-testid="payment-status">
          <StatusBadge status={p.status}>{statusLabel(p.status)}</StatusBadge>
        </span>
      </div>
      <p className="mt-1 text-xs text-muted">
        {t('result.created', { date: formatDate(p.createdAt) })} · <span className="break-all font-mono">{p.id}</span>
      </p>
      <p className="mt-3 text-sm text-ink" data-testid="payment-outcome">
        {outcome.summary}
      </p>
      <dl className="mt-3 divide-y divide-line">
        <Row label={t('result.amount')}>{formatAmount(p.amount, p.currency)}</Row>
        {outcome.lines.map((l) => (
          <Row key={l.label} label={l.label}>
            {l.value}
          </Row>
        ))}
        <Row label={p.kind === 'collection' ? t('result.payer') : t('result.recipient')}>{p.counterpartyName}</Row>
        {p.networkName && <Row label={t('result.network')}>{p.networkName}</Row>}
        {p.accountNumber && <Row label={t('result.account')}>{p.accountNumber}</Row>}
        <Row label={t('result.reference')}>{p.reference}</Row>
      </dl>
      {p.failureReason && (
        <Alert tone="danger" className="mt-4">
          {p.failureReason}
        </Alert>
      )}
      {i && (
        <div className="mt-4 rounded-lg border border-line bg-canvas p-4 text-sm">
          <h3 className="font-semibold text-ink">{t('result.instructions')}</h3>
          {i.type === 'mobile_money' ? (
            <p className="mt-1 text-muted">{i.prompt}</p>
          ) : (
            <dl className="mt-2">
              <Row label={t('result.bank')}>{i.bankName}</Row>
              <Row label={t('result.accountName')}>{i.accountName}</Row>
              <Row label={t('result.accountNumber')}>{i.accountNumber}</Row>
              <Row label={t('result.reference')}>{i.reference}</Row>
              <Row label={t('result.amount')}>{formatAmount(i.amount, i.currency)}</Row>
            </dl>
          )}
        </div>
      )}
      <h3 className="mt-5 text-sm font-semibold text-ink">{t('result.timeline')}</h3>
      <ol className="mt-2 space-y-1.5" aria-label={t('result.timeline')}>
        {p.timeline.map((e) => (
          <li key={e.status} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <StatusBadge status={e.status}>{statusLabel(e.status)}</StatusBadge>
            <span className="text-xs text-muted">{formatDate(e.at)}</span>
          </li>
        ))}
      </ol>
      <div className="mt-5 flex flex-wrap gap-3">
        <Link to={`/payments/${p.id}`} className={buttonClass('secondary')}>
          {t('result.view')}
        </Link>
        <Button onClick={onAnother}>{t('result.another')}</Button>
      </div>
    </Card>
  );
}
