import { useState } from 'react';
import { RATE_MESSAGES, rateChange, type PartnerRate, type RateReviewRequest } from '@portal/contract/rates';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate } from '../../../lib/format.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useReviewRates } from '../../../lib/partner/rates.ts';
import { localCountryName as countryLabel } from '../../../lib/country-names.ts';
import { bannersMessages } from '../messages.ts';

type Props = { open: boolean; onOpenChange: (open: boolean) => void; pending: PartnerRate[]; userId: string | undefined };

const review = (rates: PartnerRate[], decision: 'approve' | 'deny'): RateReviewRequest['rates'] =>
  rates.map((r) => {
    const change = rateChange(r.status)!;
    return { partnerRateId: r.id, platformRateId: r.rateId, status: decision === 'approve' ? change.newStatus : change.previousStatus };
  });

/**
 * The country status change review of portal-core §2: the pending changes (country and action) with Deny and
 * Approve. Approve sends the changes someone else asked for (the server refuses an approval by the one who asked);
 * Deny sends them all, which for one's own request withdraws it.
 */
export function CountryReviewDialog({ open, onOpenChange, pending, userId }: Props) {
  const t = useT(bannersMessages);
  const mutation = useReviewRates();
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState<'approve' | 'deny'>();
  const others = pending.filter((r) => r.requestedBy?.id !== userId);
  const own = pending.filter((r) => r.requestedBy?.id === userId);

  const submit = (decision: 'approve' | 'deny') => {
    setError(undefined);
    setRunning(decision);
    const rates = decision === 'approve' ? others : pending;
    mutation.mutate(review(rates, decision), {
      onSuccess: () => {
        toast.show(localizeMessage(decision === 'approve' ? RATE_MESSAGES.approved : RATE_MESSAGES.denied));
        onOpenChange(false);
      },
      onError: (err) => {
        toast.show(localizeMessage(RATE_MESSAGES.approveError));
        setError(translator(bannersMessages)('review.failed', { failed: localizeMessage(RATE_MESSAGES.reviewFailed), reason: err.message }));
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(undefined);
        onOpenChange(next);
      }}
      title={t('review.title')}
      description={t('review.description')}
      width={520}
      footer={
        <>
          <Button
            variant="secondary"
            onClick={() => submit('deny')}
            loading={mutation.isPending && running === 'deny'}
            disabled={mutation.isPending || pending.length === 0}
          >
            {t('review.deny')}
          </Button>
          <Button onClick={() => submit('approve')} loading={mutation.isPending && running === 'approve'} disabled={mutation.isPending || others.length === 0}>
            {t('review.approve')}
          </Button>
        </>
      }
    >
      <ul className="divide-y divide-line rounded-lg border border-line" aria-label={t('review.list')}>
        {pending.map((r) => {
          const change = rateChange(r.status)!;
          const mine = r.requestedBy?.id === userId;
          return (
            <li key={r.id} className="flex items-center gap-3 px-4 py-3" data-testid="pending-change">
              <CountryFlag locale={r.locale} />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-ink">
                  {countryLabel(r.locale)} <span className="font-normal text-muted">· {r.code}</span>
                </p>
                <p className="text-xs text-muted">
                  {mine
                    ? t('review.requestedByYou')
                    : r.requestedBy?.name
                      ? t('review.requestedBy', { name: r.requestedBy.name })
                      : t('review.requestedByAnAdmin')}
                  {r.requestedAt ? ` · ${formatDate(r.requestedAt)}` : ''}
                </p>
              </div>
              <StatusBadge tone={change.action === 'Enable' ? 'success' : 'danger'}>{t(`review.action.${change.action}`)}</StatusBadge>
            </li>
          );
        })}
      </ul>
      {own.length > 0 && (
        <p className="mt-3 text-xs text-muted">
          {others.length === 0 ? t('review.ownOnly') : t('review.mixed', { countries: own.map((r) => countryLabel(r.locale)).join(', ') })}
        </p>
      )}
      {error && (
        <Alert tone="danger" className="mt-4">
          {error}
        </Alert>
      )}
    </Dialog>
  );
}
