import { useState } from 'react';
import { countryName } from '@portal/contract/countries';
import { RATE_MESSAGES, rateChange, type PartnerRate, type RateReviewRequest } from '@portal/contract/rates';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate } from '../../../lib/format.ts';
import { useReviewRates } from '../../../lib/partner/rates.ts';

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
        toast.show(decision === 'approve' ? RATE_MESSAGES.approved : RATE_MESSAGES.denied);
        onOpenChange(false);
      },
      onError: (err) => {
        toast.show(RATE_MESSAGES.approveError);
        setError(`${RATE_MESSAGES.reviewFailed}: ${err.message}`);
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
      title="Review country changes"
      description="An approved change applies to your business at once. A change needs the approval of another admin than the one who asked for it."
      width={520}
      footer={
        <>
          <Button
            variant="secondary"
            onClick={() => submit('deny')}
            loading={mutation.isPending && running === 'deny'}
            disabled={mutation.isPending || pending.length === 0}
          >
            Deny
          </Button>
          <Button onClick={() => submit('approve')} loading={mutation.isPending && running === 'approve'} disabled={mutation.isPending || others.length === 0}>
            Approve
          </Button>
        </>
      }
    >
      <ul className="divide-y divide-line rounded-lg border border-line" aria-label="Pending country changes">
        {pending.map((r) => {
          const change = rateChange(r.status)!;
          const mine = r.requestedBy?.id === userId;
          return (
            <li key={r.id} className="flex items-center gap-3 px-4 py-3" data-testid="pending-change">
              <CountryFlag locale={r.locale} />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-ink">
                  {countryName(r.locale)} <span className="font-normal text-muted">· {r.code}</span>
                </p>
                <p className="text-xs text-muted">
                  {mine ? 'Requested by you' : `Requested by ${r.requestedBy?.name ?? 'an admin'}`}
                  {r.requestedAt ? ` · ${formatDate(r.requestedAt)}` : ''}
                </p>
              </div>
              <StatusBadge tone={change.action === 'Enable' ? 'success' : 'danger'}>{change.action}</StatusBadge>
            </li>
          );
        })}
      </ul>
      {own.length > 0 && (
        <p className="mt-3 text-xs text-muted">
          {others.length === 0
            ? 'You asked for these changes, so another admin must approve them. Deny withdraws your request.'
            : `Approve applies the changes other admins asked for; yours (${own.map((r) => countryName(r.locale)).join(', ')}) wait for another admin.`}
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
