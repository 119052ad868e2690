import { useState } from 'react';
import { RATE_MESSAGES, requestFor, type PartnerRate } from '@portal/contract/rates';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useRequestRateChanges } from '../api/request-rate-changes.ts';
import { localCountryName } from '../../../lib/country-names.ts';
import { countriesMessages } from '../messages.ts';

/** Confirms an Enable or Disable: the change waits for another admin's approval, and the dialog says so. */
export function ChangeRequestDialog({ rate, partnerName, onClose }: { rate: PartnerRate; partnerName: string; onClose: () => void }) {
  const t = useT(countriesMessages);
  const mutation = useRequestRateChanges();
  const [error, setError] = useState<string>();
  const enable = rate.status === 'disabled';
  const name = localCountryName(rate.locale);

  const submit = () => {
    setError(undefined);
    const status = requestFor(enable ? 'disabled' : 'enabled');
    mutation.mutate([{ partnerRateId: rate.id, platformRateId: rate.rateId, status }], {
      onSuccess: () => {
        toast.show(t('requestSent'));
        onClose();
      },
      onError: (err) => {
        toast.show(localizeMessage(RATE_MESSAGES.updateFailed));
        setError(err.message);
      },
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={enable ? t('dialog.enableTitle', { country: name }) : t('dialog.disableTitle', { country: name })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            {t('dialog.cancel')}
          </Button>
          <Button variant={enable ? 'primary' : 'danger'} onClick={submit} loading={mutation.isPending}>
            {enable ? t('dialog.requestEnable') : t('dialog.requestDisable')}
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
        {enable ? t('dialog.enableBody', { partner: partnerName, country: name }) : t('dialog.disableBody', { partner: partnerName, country: name })}{' '}
        {t('dialog.othersSee')}
      </p>
      {error && (
        <Alert tone="danger" className="mt-4">
          {t('dialog.failed', { message: localizeMessage(RATE_MESSAGES.updateFailed), reason: localizeMessage(error) })}
        </Alert>
      )}
    </Dialog>
  );
}
