import { useState } from 'react';
import { WALLET_DENIAL_REASONS, WALLET_MESSAGES, denyReason, type SettlementWallet } from '@portal/contract/wallets';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { cn } from '../../../components/ui/cn.ts';
import { useReviewWallet } from '../api/review-wallet.ts';
import { WalletDetails } from './wallet-details.tsx';

/**
 * The wallet review modal (portal-core §2, §4): step 1 the details with Deny and Approve; step 2 the denial reasons
 * as radios and a free 'Other' text that wins over the chosen one; Submit stays disabled while the reason is empty.
 * The outcome is a toast (§8), a failure too.
 */
export function ReviewWalletDialog({ wallet, open, onOpenChange }: { wallet: SettlementWallet; open: boolean; onOpenChange: (open: boolean) => void }) {
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
          toast.show(status === 'approved' ? WALLET_MESSAGES.approved : WALLET_MESSAGES.denied);
          onOpenChange(false);
        },
        onError: (err) => toast.show(err.message),
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={step === 'details' ? 'Review new wallet address' : 'Deny wallet address'}
      description={
        step === 'details'
          ? 'Check the address with the person who added it before you approve: withdrawals can be sent to it once it is screened.'
          : 'Tell the team why. The reason is kept with the wallet.'
      }
      width={520}
      footer={
        step === 'details' ? (
          <>
            <Button variant="secondary" onClick={() => setStep('deny')} disabled={review.isPending}>
              Deny
            </Button>
            <Button onClick={() => submit('approved')} loading={review.isPending}>
              Approve
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('details')} disabled={review.isPending}>
              Back
            </Button>
            <Button variant="danger" onClick={() => submit('denied')} disabled={!reason} loading={review.isPending}>
              Submit
            </Button>
          </>
        )
      }
    >
      {step === 'details' ? (
        <WalletDetails wallet={wallet} />
      ) : (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-medium">Reason</legend>
          {WALLET_DENIAL_REASONS.map((r) => (
            <label
              key={r}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 text-sm',
                selected === r ? 'border-brand-600 bg-brand-50' : 'border-line hover:bg-canvas',
              )}
            >
              <input type="radio" name="deny-reason" className="mt-0.5 size-4 accent-brand-700" checked={selected === r} onChange={() => setSelected(r)} />
              {r}
            </label>
          ))}
          <div className="space-y-1.5 pt-2">
            <label htmlFor="deny-other" className="text-sm font-medium">
              Other
            </label>
            <input
              id="deny-other"
              className={inputClass}
              value={other}
              maxLength={500}
              placeholder="Another reason (replaces the one chosen above)"
              onChange={(e) => setOther(e.target.value)}
            />
          </div>
        </fieldset>
      )}
    </Dialog>
  );
}
