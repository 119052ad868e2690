import { useState } from 'react';
import { type SettlementWallet } from '@portal/contract/wallets';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useUpdateWallet } from '../api/update-wallet.ts';
import { changeOutcome } from '../change-outcome.ts';
import { walletsMessages } from '../messages.ts';

/**
 * Enable or disable a wallet. Disabling stops withdrawals to it at once and needs no code; enabling makes it a
 * destination of money again, so, like adding one, it needs the e-mailed code.
 */
export function WalletStatusDialog({
  wallet,
  to,
  open,
  onOpenChange,
}: {
  wallet: SettlementWallet;
  to: 'enabled' | 'disabled';
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT(walletsMessages);
  const otp = useCodeStep();
  const update = useUpdateWallet();
  const [formError, setFormError] = useState<string>();
  const [asked, setAsked] = useState(false);
  const enabling = to === 'enabled';

  const submit = () =>
    update.mutate(
      { address: wallet.address, network: wallet.network, status: to, ...(enabling ? { otp: otp.code } : {}) },
      changeOutcome(otp, t(enabling ? 'statusDialog.enabled' : 'statusDialog.disabled'), () => onOpenChange(false), setFormError),
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(enabling ? 'statusDialog.enableTitle' : 'statusDialog.disableTitle')}
      description={t(enabling ? 'statusDialog.enableDescription' : 'statusDialog.disableDescription')}
      width={500}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={update.isPending}>
            {t('cancel')}
          </Button>
          {enabling && !asked ? (
            <Button
              loading={otp.sending}
              onClick={() =>
                void otp
                  .send({ action: 'wallet.enable', target: { address: wallet.address, network: wallet.network } }, (err) => setFormError(err.message))
                  .then((sent) => setAsked(sent))
              }
            >
              {t('sendCode')}
            </Button>
          ) : (
            <Button variant={enabling ? 'primary' : 'danger'} onClick={submit} loading={update.isPending} disabled={enabling && otp.code.length !== 6}>
              {t(enabling ? 'action.enable' : 'action.disable')}
            </Button>
          )}
        </>
      }
    >
      <div className="space-y-4">
        <div className="rounded-lg bg-canvas px-3 py-2 text-sm">
          {t.rich('walletOn', { b: (text) => <span className="font-medium">{text}</span>, currencies: wallet.currencies.join(', '), network: wallet.network })}{' '}
          <code className="break-all font-mono text-[13px]">{wallet.address}</code>
        </div>
        {enabling && asked && <CodeStep step={otp} />}
        {enabling && !asked && otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
        {formError && <Alert tone="danger">{formError}</Alert>}
      </div>
    </Dialog>
  );
}
