import { useState } from 'react';
import { WALLET_DENIAL_REASONS, WALLET_MESSAGES, denyReason, type SettlementWallet } from '@portal/contract/wallets';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useReviewWallet } from '../api/review-wallet.ts';
import { walletsMessages } from '../messages.ts';
import { ReasonChoices } from './reason-choices.tsx';
import { WalletDetails } from './wallet-details.tsx';

/**
 * The wallet review modal (portal-core §2, §4): step 1 the details with Deny and Approve; step 2 the denial reasons
 * as radios and a free 'Other' text that wins over the chosen one; Submit stays disabled while the reason is empty.
 * The outcome is a toast (§8), a failure too.
 */
export function ReviewWalletDialog({ wallet, open, onOpenChange }: { wallet: SettlementWallet; open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(walletsMessages);
  const [step, setStep] = useState<'details' | 'deny'>('details');
  const [selected, setSelected] = useState<string | null>(null);
  const [other, setOther] = useState('');
  const review = useReviewWallet();
  const reason = denyReason(selected, other);

  const submit = (status: 'approved' | 'denied') =>
    review.mutate(
      { address: wallet.address, network: wallet.network, status, ...(status === 'denied' ? { reason } : {}) },
      {
        onSuccess: () => {
          toast.show(localizeMessage(status === 'approved' ? WALLET_MESSAGES.approved : WALLET_MESSAGES.denied));
          onOpenChange(false);
        },
        onError: (err) => toast.show(localizeMessage(err.message)),
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(step === 'details' ? 'reviewDialog.title' : 'reviewDialog.denyTitle')}
      description={t(step === 'details' ? 'reviewDialog.description' : 'reviewDialog.denyDescription')}
      width={520}
      footer={
        step === 'details' ? (
          <>
            <Button variant="secondary" onClick={() => setStep('deny')} disabled={review.isPending}>
              {t('reviewDialog.deny')}
            </Button>
            <Button onClick={() => submit('approved')} loading={review.isPending}>
              {t('reviewDialog.approve')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('details')} disabled={review.isPending}>
              {t('back')}
            </Button>
            <Button variant="danger" onClick={() => submit('denied')} disabled={!reason} loading={review.isPending}>
              {t('reviewDialog.submit')}
            </Button>
          </>
        )
      }
    >
      {step === 'details' ? (
        <WalletDetails wallet={wallet} />
      ) : (
        <ReasonChoices legend={t('reviewDialog.reason')} name="deny-reason" reasons={WALLET_DENIAL_REASONS} selected={selected} onSelect={setSelected}>
          <TextField
            id="deny-other"
            className="pt-2"
            label={t('reviewDialog.other')}
            value={other}
            maxLength={500}
            placeholder={t('reviewDialog.otherPlaceholder')}
            onChange={(e) => setOther(e.target.value)}
          />
        </ReasonChoices>
      )}
    </Dialog>
  );
}
