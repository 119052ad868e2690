import { useState } from 'react';
import { WALLET_DELETION_REASONS, type SettlementWallet } from '@portal/contract/wallets';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useDeleteWallet } from '../api/delete-wallet.ts';
import { changeOutcome } from '../change-outcome.ts';
import { walletsMessages } from '../messages.ts';
import { ReasonChoices } from './reason-choices.tsx';

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
      changeOutcome(otp, t('deleteDialog.deleted'), () => onOpenChange(false), setFormError),
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
        <ReasonChoices legend={t('deleteDialog.legend')} name="delete-reason" reasons={WALLET_DELETION_REASONS} selected={reason} onSelect={setReason}>
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          {formError && <Alert tone="danger">{formError}</Alert>}
        </ReasonChoices>
      ) : (
        <div className="space-y-4">
          <CodeStep step={otp} />
          {formError && <Alert tone="danger">{formError}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
