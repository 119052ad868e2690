import { useState } from 'react';
import { WALLET_DELETION_REASONS, type SettlementWallet } from '@portal/contract/wallets';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useDeleteWallet } from '../api/delete-wallet.ts';
import { walletsMessages } from '../messages.ts';
import { reasonText } from '../reasons.ts';

type Reason = (typeof WALLET_DELETION_REASONS)[number];

/** Delete a wallet (portal-core §5): one of the four reasons, then the e-mailed code. It stays listed as deleted. */
export function DeleteWalletDialog({ wallet, open, onOpenChange }: { wallet: SettlementWallet; open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(walletsMessages);
  const [reason, setReason] = useState<Reason | null>(null);
  const [step, setStep] = useState<'reason' | 'code'>('reason');
  const [formError, setFormError] = useState<string>();
  const otp = useCodeStep();
  const remove = useDeleteWallet();

  const next = async () => {
    if (await otp.send({ action: 'wallet.delete', target: { address: wallet.address, network: wallet.network } }, (err) => setFormError(err.message)))
      setStep('code');
  };
  const submit = () =>
    reason &&
    remove.mutate(
      { address: wallet.address, network: wallet.network, reason, otp: otp.code },
      {
        onSuccess: () => {
          toast.show(t('deleteDialog.deleted'));
          onOpenChange(false);
        },
        onError: (err) => {
          if (!otp.takeError(err)) setFormError(localizeMessage(err.message));
        },
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('deleteDialog.title')}
      description={t('deleteDialog.description', { currencies: wallet.currencies.join(', '), network: wallet.network })}
      width={520}
      footer={
        step === 'reason' ? (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('cancel')}
            </Button>
            <Button variant="danger" onClick={() => void next()} disabled={!reason} loading={otp.sending}>
              {t('continue')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('reason')} disabled={remove.isPending}>
              {t('back')}
            </Button>
            <Button variant="danger" onClick={submit} loading={remove.isPending} disabled={otp.code.length !== 6}>
              {t('deleteDialog.submit')}
            </Button>
          </>
        )
      }
    >
      <div className="mb-4 rounded-lg bg-canvas px-3 py-2 text-sm">
        <code className="break-all font-mono text-[13px]">{wallet.address}</code>
      </div>
      {step === 'reason' ? (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-medium">{t('deleteDialog.legend')}</legend>
          {WALLET_DELETION_REASONS.map((r) => (
            <label
              key={r}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 text-sm',
                reason === r ? 'border-brand-600 bg-brand-50' : 'border-line hover:bg-canvas',
              )}
            >
              <input type="radio" name="delete-reason" className="mt-0.5 size-4 accent-brand-700" checked={reason === r} onChange={() => setReason(r)} />
              {reasonText(t, r)}
            </label>
          ))}
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          {formError && <Alert tone="danger">{formError}</Alert>}
        </fieldset>
      ) : (
        <div className="space-y-4">
          <CodeStep step={otp} />
          {formError && <Alert tone="danger">{formError}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
