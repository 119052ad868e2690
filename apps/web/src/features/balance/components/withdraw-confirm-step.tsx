import { AlertTriangle } from 'lucide-react';
import { WITHDRAWAL_MESSAGES } from '@portal/contract/settlements';
import { Alert } from '../../../components/ui/alert.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatCrypto, formatMoney } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import type { useSettlementFee } from '../api/settlement-fee.ts';
import type { useTravelRule } from '../api/travel-rule.ts';
import type { useWithdraw } from '../api/withdraw.ts';
import { balanceMessages } from '../messages.ts';
import type { Destination } from '../withdrawal.ts';
import { SummaryRow as Row } from './summary-row.tsx';

/** The travel-rule recipient a withdrawal above the threshold names. */
export type Recipient = { name: string; businessRegistrationNumber: string };

/**
 * The withdrawal's confirmation: rate, network fee and what arrives, the wallet, the recipient when the amount needs
 * one (`needsRecipient`), the irreversibility warning, and what the request said when it failed.
 */
export function WithdrawConfirmStep({
  amount,
  chosen,
  fee,
  travelRule,
  needsRecipient,
  recipient,
  setRecipient,
  withdraw,
  reconnecting,
}: {
  amount: string;
  chosen: Destination;
  fee: ReturnType<typeof useSettlementFee>;
  travelRule: ReturnType<typeof useTravelRule>;
  needsRecipient: boolean;
  recipient: Recipient;
  setRecipient: (recipient: Recipient) => void;
  withdraw: ReturnType<typeof useWithdraw>;
  reconnecting: boolean;
}) {
  const t = useT(balanceMessages);
  return (
    <div className="space-y-4">
      {fee.isPending ? (
        <div className="py-6 text-center">
          <Spinner label={t('withdrawDialog.gettingFee')} />
        </div>
      ) : fee.isError ? (
        <Alert tone="danger">{fee.error.message}</Alert>
      ) : (
        fee.data && (
          <dl className="divide-y divide-line rounded-lg border border-line px-4">
            <Row label={t('withdrawDialog.youWithdraw')} value={formatMoney(amount, 'USD')} strong testId="confirm-amount" />
            <Row label={t('withdrawDialog.rate')} value={`1 ${chosen.coin} = ${formatMoney(fee.data.rate, 'USD')}`} testId="confirm-rate" />
            <Row label={t('withdrawDialog.networkFee')} value={formatCrypto(fee.data.feeAmount, chosen.coin)} testId="confirm-fee" />
            <Row
              label={t('withdrawDialog.arrives')}
              value={<span className="whitespace-nowrap">{formatCrypto(fee.data.receiveAmount, chosen.coin)}</span>}
              strong
              testId="confirm-receive"
            />
            <Row
              label={t('withdrawDialog.to', { network: chosen.wallet.network })}
              value={
                <span className="block max-w-[15rem] break-all font-mono text-[13px] sm:max-w-[18rem]">
                  {chosen.wallet.address}
                  {chosen.wallet.network === 'XLM' && chosen.wallet.tag ? (
                    <span className="block text-muted">{t('withdrawDialog.memo', { memo: chosen.wallet.tag })}</span>
                  ) : null}
                </span>
              }
            />
          </dl>
        )
      )}
      {travelRule.isError && <Alert tone="warning">{localizeMessage(travelRule.error.message)}</Alert>}
      {needsRecipient && (
        <div className="rounded-lg border border-line p-3">
          <p className="text-sm font-medium">{t('withdrawDialog.recipientTitle')}</p>
          <p className="mt-0.5 text-xs text-muted">{t('withdrawDialog.recipientBody')}</p>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
            <TextField
              id="tr-name"
              label={t('withdrawDialog.recipientName')}
              value={recipient.name}
              onChange={(e) => setRecipient({ ...recipient, name: e.target.value })}
            />
            <TextField
              id="tr-reg"
              label={t('withdrawDialog.registration')}
              value={recipient.businessRegistrationNumber}
              onChange={(e) => setRecipient({ ...recipient, businessRegistrationNumber: e.target.value })}
            />
          </div>
        </div>
      )}
      <div className="flex gap-3 rounded-lg border border-warning/25 bg-warning-soft px-3 py-2.5 text-sm text-warning" role="note">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p data-testid="irreversible-warning">{localizeMessage(WITHDRAWAL_MESSAGES.irreversible)}</p>
      </div>
      {withdraw.isPending && reconnecting && <Alert tone="warning">{t('withdrawDialog.reconnecting')}</Alert>}
      {withdraw.isError && <Alert tone="danger">{localizeMessage(withdraw.error.message)}</Alert>}
    </div>
  );
}
