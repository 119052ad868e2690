import { useState } from 'react';
import { countryName } from '@portal/contract/countries';
import { RATE_MESSAGES, requestFor, type PartnerRate } from '@portal/contract/rates';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useRequestRateChanges } from '../api/request-rate-changes.ts';

export const REQUEST_SENT = 'Request sent. Another admin must approve it.';

/** Confirms an Enable or Disable: the change waits for another admin's approval, and the dialog says so. */
export function ChangeRequestDialog({ rate, partnerName, onClose }: { rate: PartnerRate; partnerName: string; onClose: () => void }) {
  const mutation = useRequestRateChanges();
  const [error, setError] = useState<string>();
  const enable = rate.status === 'disabled';
  const name = countryName(rate.locale);

  const submit = () => {
    setError(undefined);
    const status = requestFor(enable ? 'disabled' : 'enabled');
    mutation.mutate([{ partnerRateId: rate.id, platformRateId: rate.rateId, status }], {
      onSuccess: () => {
        toast.show(REQUEST_SENT);
        onClose();
      },
      onError: (err) => {
        toast.show(RATE_MESSAGES.updateFailed);
        setError(err.message);
      },
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`${enable ? 'Enable' : 'Disable'} ${name}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant={enable ? 'primary' : 'danger'} onClick={submit} loading={mutation.isPending}>
            {enable ? 'Request to enable' : 'Request to disable'}
          </Button>
        </>
      }
    >
      <div className="flex items-center gap-3 rounded-lg border border-line px-4 py-3">
        <CountryFlag locale={rate.locale} />
        <p className="text-sm font-medium text-ink">
          {name} <span className="font-normal text-muted">· {rate.code}</span>
        </p>
      </div>
      <p className="mt-4 text-sm text-muted">
        {enable
          ? `${partnerName} starts serving ${name} once another admin approves this request. Until then it stays disabled.`
          : `${partnerName} stops serving ${name} once another admin approves this request. Until then it stays enabled.`}{' '}
        The other admins see the request at the top of every page.
      </p>
      {error && (
        <Alert tone="danger" className="mt-4">
          {RATE_MESSAGES.updateFailed}: {error}
        </Alert>
      )}
    </Dialog>
  );
}
