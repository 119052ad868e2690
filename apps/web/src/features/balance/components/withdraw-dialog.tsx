import { AlertTriangle, Clock } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SETTLEMENT_SOURCE, WITHDRAWAL_MESSAGES, WITHDRAWAL_PROCESSING_MINUTES, travelRuleFieldsFor, type Settlement } from '@portal/contract/settlements';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatCrypto, formatMoney } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { newId } from '../../../lib/ids.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { accountsQuery, usdAvailable } from '../../../lib/partner/accounts.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSettlementFee } from '../api/settlement-fee.ts';
import { useTravelRule } from '../api/travel-rule.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { balanceMessages } from '../messages.ts';
import { amountAboveMax, amountProblem, atMostText, destinations, withdrawableNow, type Destination } from '../withdrawal.ts';
import { useConnection } from '../../../lib/connection.ts';

const short = (a: string) => (a.length > 22 ? `${a.slice(0, 10)}…${a.slice(-8)}` : a);

function Row({ label, value, strong, testId }: { label: string; value: React.ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-4 py-2.5 text-sm">
      <dt className="max-w-[60%] shrink-0 text-muted">{label}</dt>
      <dd className={strong ? 'text-right font-semibold' : 'text-right'} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

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
  const [recipient, setRecipient] = useState({ name: '', businessRegistrationNumber: '' });
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
        <Link
          to="/transactions?tab=3"
          onClick={() => onOpenChange(false)}
          className="inline-flex h-10 items-center rounded-lg border border-line bg-white px-4 text-sm font-medium hover:bg-canvas"
        >
          {t('withdrawDialog.viewSettlements')}
        </Link>
        <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
      </>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} width={520} footer={footer}>
      {step === 'amount' && (
        <div className="space-y-5">
          <TextField
            label={t('withdrawDialog.amount')}
            inputMode="decimal"
            placeholder="0.00"
            value={amount}
            onChange={(e) => {
              // a French reader writes the decimals after a comma; the amount keeps the dot the request sends
              const typed = (t.language === 'fr' ? e.target.value.replace(/,/g, '.') : e.target.value).replace(/[^\d.]/g, '');
              setAmount(typed);
              // above the maximum is said as it is typed; the format and the minimum wait for Continue (a half-typed
              // amount is not wrong yet)
              setAmountError(amountAboveMax(typed, max));
            }}
            error={amountError ?? undefined}
            hint={<span data-testid="max-settlement">{atMostText(max)}</span>}
            trailing={
              <button
                type="button"
                className="text-xs font-semibold text-brand-800 underline underline-offset-2"
                onClick={() => {
                  // the most that can be withdrawn is never above it: a problem said of the amount before goes
                  setAmount(Number(max) > 0 ? max : '');
                  setAmountError(null);
                }}
              >
                {t('withdrawDialog.max')}
              </button>
            }
          />
          <div className="space-y-1.5">
            <p className="text-sm font-medium">{t('withdrawDialog.toWallet')}</p>
            {wallets.isPending ? (
              <Spinner label={t('withdrawDialog.loadingWallets')} />
            ) : options.length === 0 ? (
              <Alert tone="warning">
                <p className="font-semibold" data-testid="no-wallet">
                  {localizeMessage(WITHDRAWAL_MESSAGES.noWallet)}
                </p>
                <p className="mt-1">
                  {canManageWallets
                    ? t.rich('withdrawDialog.addWallet', {
                        a: (text) => (
                          <Link to="/wallets" className="font-semibold underline underline-offset-2" onClick={() => onOpenChange(false)}>
                            {text}
                          </Link>
                        ),
                      })
                    : t('withdrawDialog.askAdmin')}
                </p>
              </Alert>
            ) : (
              <SearchableSelect
                label={t('withdrawDialog.toWallet')}
                options={options.map((o) => ({ value: o.key, label: `${o.coin} · ${o.wallet.network} · ${short(o.wallet.address)}` }))}
                value={chosen?.key}
                onChange={setKey}
              />
            )}
            {wallets.isError && <Alert tone="danger">{wallets.error.message}</Alert>}
          </div>
        </div>
      )}

      {step === 'confirm' && chosen && (
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
          {needs.length > 0 && (
            <div className="rounded-lg border border-line p-3">
              <p className="text-sm font-medium">{t('withdrawDialog.recipientTitle')}</p>
              <p className="mt-0.5 text-xs text-muted">{t('withdrawDialog.recipientBody')}</p>
              <div className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
                <div className="space-y-1.5">
                  <label htmlFor="tr-name" className="text-sm font-medium">
                    {t('withdrawDialog.recipientName')}
                  </label>
                  <input id="tr-name" className={inputClass} value={recipient.name} onChange={(e) => setRecipient({ ...recipient, name: e.target.value })} />
                </div>
                <div className="space-y-1.5">
                  <label htmlFor="tr-reg" className="text-sm font-medium">
                    {t('withdrawDialog.registration')}
                  </label>
                  <input
                    id="tr-reg"
                    className={inputClass}
                    value={recipient.businessRegistrationNumber}
                    onChange={(e) => setRecipient({ ...recipient, businessRegistrationNumber: e.target.value })}
                  />
                </div>
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
      )}

      {step === 'pending' && done && (
        <div className="space-y-4 text-center">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Clock className="size-6" aria-hidden="true" />
          </div>
          <div>
            <p className="text-lg font-semibold" data-testid="withdrawal-pending">
              {t('withdrawDialog.onItsWay', { amount: formatCrypto(done.cryptoAmount, done.cryptoCurrency) })}
            </p>
            <p className="mt-1 text-sm text-muted">
              {t('withdrawDialog.processing', { min: WITHDRAWAL_PROCESSING_MINUTES.min, max: WITHDRAWAL_PROCESSING_MINUTES.max })}
            </p>
          </div>
          <dl className="divide-y divide-line rounded-lg border border-line px-4 text-left">
            <Row label={t('withdrawDialog.status')} value={<Badge tone="warning">{t('withdrawDialog.pending')}</Badge>} />
            <Row label={t('withdrawDialog.taken')} value={<span className="whitespace-nowrap">{formatMoney(done.amount, 'USD')}</span>} />
            <Row label={t('withdrawDialog.reference')} value={<span className="font-mono text-xs">{done.id}</span>} />
          </dl>
        </div>
      )}
    </Dialog>
  );
}
