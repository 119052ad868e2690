import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SETTLEMENT_SOURCE, travelRuleFieldsFor, type Settlement } from '@portal/contract/settlements';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useT } from '../../../lib/i18n.ts';
import { newId } from '../../../lib/ids.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { accountsQuery, usdAvailable } from '../../../lib/partner/accounts.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSettlementFee } from '../api/settlement-fee.ts';
import { useTravelRule } from '../api/travel-rule.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { balanceMessages } from '../messages.ts';
import { amountProblem, atMostText, destinations, withdrawableNow, type Destination } from '../withdrawal.ts';
import { WithdrawAmountStep } from './withdraw-amount-step.tsx';
import { WithdrawConfirmStep, type Recipient } from './withdraw-confirm-step.tsx';
import { WithdrawPendingStep } from './withdraw-pending-step.tsx';
import { useConnection } from '../../../lib/connection.ts';

/**
 * The withdrawal of portal-core §4: the amount and the wallet, then the confirmation (rate, network fee, what
 * arrives, the irreversibility warning, the travel-rule recipient when the amount needs it), then the pending
 * acknowledgement. The server checks everything again; the request's sequenceId is made once per confirmation, so a
 * retry cannot book it twice.
 */
export function WithdrawDialog({
  open,
  onOpenChange,
  available,
  canManageWallets,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  available: string;
  canManageWallets: boolean;
}) {
  const t = useT(balanceMessages);
  const wallets = useSettlementWallets();
  const travelRule = useTravelRule();
  const withdraw = useWithdraw();
  const reconnecting = useConnection((c) => c.status === 'reconnecting');
  const options = destinations(wallets.data?.wallets);
  const [step, setStep] = useState<'amount' | 'confirm' | 'pending'>('amount');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [key, setKey] = useState<string | undefined>(undefined);
  const [sequenceId, setSequenceId] = useState('');
  const [recipient, setRecipient] = useState<Recipient>({ name: '', businessRegistrationNumber: '' });
  const [done, setDone] = useState<Settlement | null>(null);
  const max = withdrawableNow(available);
  const qc = useQueryClient();
  // the balance may have moved since the screen loaded: the maximum is read again when the dialog opens
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: accountsQuery.queryKey });
  }, [qc]);
  const chosen: Destination | undefined = options.find((o) => o.key === key) ?? (options.length === 1 ? options[0] : undefined);
  const fee = useSettlementFee(step === 'confirm' && chosen ? { amount: amount.trim(), coin: chosen.coin, network: chosen.wallet.network } : null);
  const needs = travelRuleFieldsFor(travelRule.data?.configs ?? [], amount.trim());
  const recipientMissing = needs.length > 0 && (!recipient.name.trim() || !recipient.businessRegistrationNumber.trim());

  const toConfirm = () => {
    const problem = amountProblem(amount, max);
    setAmountError(problem);
    if (problem || !chosen) return;
    setSequenceId(newId());
    setRecipient({
      name: chosen.wallet.travelRuleInfo?.name ?? '',
      businessRegistrationNumber: chosen.wallet.travelRuleInfo?.businessRegistrationNumber ?? '',
    });
    withdraw.reset();
    setStep('confirm');
  };

  const confirm = () => {
    if (!chosen) return;
    withdraw.mutate(
      {
        amount: amount.trim(),
        sequenceId,
        source: SETTLEMENT_SOURCE,
        walletAddress: chosen.wallet.address,
        cryptoCurrency: chosen.coin,
        cryptoNetwork: chosen.wallet.network,
        fiatWallet: 'USD',
        receivingWallet: chosen.wallet.id,
        travelRuleInfo: needs.length > 0 ? { name: recipient.name.trim(), businessRegistrationNumber: recipient.businessRegistrationNumber.trim() } : null,
      },
      {
        onSuccess: (res) => {
          setDone(res.settlement);
          setStep('pending');
        },
        onError: (err) => {
          if (!(err instanceof ApiError) || err.code !== 'InsufficientBalance') return;
          // the balance moved under the dialog: read it again and say the new maximum at the amount
          void qc.fetchQuery({ ...accountsQuery, staleTime: 0 }).then(
            (fresh) => {
              const now = usdAvailable(fresh.accounts);
              withdraw.reset();
              setAmountError(atMostText(withdrawableNow(now)));
              setStep('amount');
            },
            () => undefined,
          );
        },
      },
    );
  };

  const title = t(step === 'amount' ? 'withdrawDialog.titleAmount' : step === 'confirm' ? 'withdrawDialog.titleConfirm' : 'withdrawDialog.titlePending');
  const footer =
    step === 'amount' ? (
      <>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t('cancel')}
        </Button>
        <Button onClick={toConfirm} disabled={options.length === 0 || !chosen}>
          {t('continue')}
        </Button>
      </>
    ) : step === 'confirm' ? (
      <>
        <Button variant="secondary" onClick={() => setStep('amount')} disabled={withdraw.isPending}>
          {t('back')}
        </Button>
        <Button onClick={confirm} loading={withdraw.isPending} disabled={!fee.data || recipientMissing}>
          {t('withdrawDialog.confirm')}
        </Button>
      </>
    ) : (
      <>
        <Link to="/transactions?tab=3" onClick={() => onOpenChange(false)} className={buttonClass('secondary')}>
          {t('withdrawDialog.viewSettlements')}
        </Link>
        <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
      </>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} width={520} footer={footer}>
      {step === 'amount' && (
        <WithdrawAmountStep
          amount={amount}
          setAmount={setAmount}
          amountError={amountError}
          setAmountError={setAmountError}
          max={max}
          wallets={wallets}
          options={options}
          chosen={chosen}
          choose={setKey}
          canManageWallets={canManageWallets}
          close={() => onOpenChange(false)}
        />
      )}
      {step === 'confirm' && chosen && (
        <WithdrawConfirmStep
          amount={amount}
          chosen={chosen}
          fee={fee}
          travelRule={travelRule}
          needsRecipient={needs.length > 0}
          recipient={recipient}
          setRecipient={setRecipient}
          withdraw={withdraw}
          reconnecting={reconnecting}
        />
      )}
      {step === 'pending' && done && <WithdrawPendingStep done={done} />}
    </Dialog>
  );
}
