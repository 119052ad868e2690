import { AlertTriangle, Clock } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { normalise } from '@portal/contract/decimal';
import { SETTLEMENT_SOURCE, WITHDRAWAL_MESSAGES, WITHDRAWAL_PROCESSING_MINUTES, travelRuleFieldsFor, type Settlement } from '@portal/contract/settlements';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatCrypto, formatMoney } from '../../../lib/format.ts';
import { newId } from '../../../lib/ids.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { accountsQuery, usdAvailable } from '../../../lib/partner/accounts.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSettlementFee } from '../api/settlement-fee.ts';
import { useTravelRule } from '../api/travel-rule.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { amountProblem, destinations, type Destination } from '../withdrawal.ts';
import { useConnection } from '../../../lib/connection.ts';

const short = (a: string) => (a.length > 22 ? `${a.slice(0, 10)}…${a.slice(-8)}` : a);

function Row({ label, value, strong, testId }: { label: string; value: React.ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-4 py-2.5 text-sm">
      <dt className="shrink-0 text-muted">{label}</dt>
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
  const max = Number(available) > 0 ? normalise(available, 2) : '0.00';
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
              setAmountError(WITHDRAWAL_MESSAGES.atMost(Number(now) > 0 ? normalise(now, 2) : '0.00'));
              setStep('amount');
            },
            () => undefined,
          );
        },
      },
    );
  };

  const title = step === 'amount' ? 'Withdraw funds' : step === 'confirm' ? 'Confirm withdrawal' : 'Withdrawal pending';
  const footer =
    step === 'amount' ? (
      <>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button onClick={toConfirm} disabled={options.length === 0 || !chosen}>
          Continue
        </Button>
      </>
    ) : step === 'confirm' ? (
      <>
        <Button variant="secondary" onClick={() => setStep('amount')} disabled={withdraw.isPending}>
          Back
        </Button>
        <Button onClick={confirm} loading={withdraw.isPending} disabled={!fee.data || recipientMissing}>
          Confirm withdrawal
        </Button>
      </>
    ) : (
      <>
        <Link
          to="/transactions?tab=3"
          onClick={() => onOpenChange(false)}
          className="inline-flex h-10 items-center rounded-lg border border-line bg-white px-4 text-sm font-medium hover:bg-canvas"
        >
          View settlements
        </Link>
        <Button onClick={() => onOpenChange(false)}>Done</Button>
      </>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} width={520} footer={footer}>
      {step === 'amount' && (
        <div className="space-y-5">
          <TextField
            label="Amount (USD)"
            inputMode="decimal"
            placeholder="0.00"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value.replace(/[^\d.]/g, ''));
              setAmountError(null);
            }}
            error={amountError ?? undefined}
            hint={<span data-testid="max-settlement">{WITHDRAWAL_MESSAGES.atMost(max)}</span>}
            trailing={
              <button
                type="button"
                className="text-xs font-semibold text-brand-800 underline underline-offset-2"
                onClick={() => setAmount(Number(max) > 0 ? formatMoney(max).replace(/,/g, '') : '')}
              >
                Max
              </button>
            }
          />
          <div className="space-y-1.5">
            <p className="text-sm font-medium">To wallet</p>
            {wallets.isPending ? (
              <Spinner label="Loading wallets..." />
            ) : options.length === 0 ? (
              <Alert tone="warning">
                <p className="font-semibold" data-testid="no-wallet">
                  {WITHDRAWAL_MESSAGES.noWallet}
                </p>
                <p className="mt-1">
                  {canManageWallets ? (
                    <>
                      <Link to="/wallets" className="font-semibold underline underline-offset-2" onClick={() => onOpenChange(false)}>
                        Add a wallet address
                      </Link>
                      ; a second person approves it, then it can receive withdrawals.
                    </>
                  ) : (
                    'Ask an admin of your team to add a wallet address.'
                  )}
                </p>
              </Alert>
            ) : (
              <SearchableSelect
                label="To wallet"
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
              <Spinner label="Getting the rate and the network fee..." />
            </div>
          ) : fee.isError ? (
            <Alert tone="danger">{fee.error.message}</Alert>
          ) : (
            fee.data && (
              <dl className="divide-y divide-line rounded-lg border border-line px-4">
                <Row label="You withdraw" value={formatMoney(amount, 'USD')} strong testId="confirm-amount" />
                <Row label="Rate" value={`1 ${chosen.coin} = ${formatMoney(fee.data.rate, 'USD')}`} testId="confirm-rate" />
                <Row label="Network fee" value={formatCrypto(fee.data.feeAmount, chosen.coin)} testId="confirm-fee" />
                <Row
                  label="Arrives in the wallet"
                  value={<span className="whitespace-nowrap">{formatCrypto(fee.data.receiveAmount, chosen.coin)}</span>}
                  strong
                  testId="confirm-receive"
                />
                <Row
                  label={`To (${chosen.wallet.network})`}
                  value={
                    <span className="block max-w-[15rem] break-all font-mono text-[13px] sm:max-w-[18rem]">
                      {chosen.wallet.address}
                      {chosen.wallet.network === 'XLM' && chosen.wallet.tag ? <span className="block text-muted">Memo {chosen.wallet.tag}</span> : null}
                    </span>
                  }
                />
              </dl>
            )
          )}
          {travelRule.isError && <Alert tone="warning">{travelRule.error.message}</Alert>}
          {needs.length > 0 && (
            <div className="rounded-lg border border-line p-3">
              <p className="text-sm font-medium">Recipient (travel rule)</p>
              <p className="mt-0.5 text-xs text-muted">
                Withdrawals of this amount carry the recipient's details. They must be accurate or the transaction fails.
              </p>
              <div className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
                <div className="space-y-1.5">
                  <label htmlFor="tr-name" className="text-sm font-medium">
                    Full name of entity or beneficiary
                  </label>
                  <input id="tr-name" className={inputClass} value={recipient.name} onChange={(e) => setRecipient({ ...recipient, name: e.target.value })} />
                </div>
                <div className="space-y-1.5">
                  <label htmlFor="tr-reg" className="text-sm font-medium">
                    Business registration number
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
            <p data-testid="irreversible-warning">{WITHDRAWAL_MESSAGES.irreversible}</p>
          </div>
          {withdraw.isPending && reconnecting && (
            <Alert tone="warning">
              The server cannot be reached right now. Your withdrawal will be sent again, with the same reference, as soon as it answers: it cannot be made
              twice.
            </Alert>
          )}
          {withdraw.isError && <Alert tone="danger">{withdraw.error.message}</Alert>}
        </div>
      )}

      {step === 'pending' && done && (
        <div className="space-y-4 text-center">
          <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Clock className="size-6" aria-hidden="true" />
          </div>
          <div>
            <p className="text-lg font-semibold" data-testid="withdrawal-pending">
              {formatCrypto(done.cryptoAmount, done.cryptoCurrency)} on its way
            </p>
            <p className="mt-1 text-sm text-muted">
              Processing takes {WITHDRAWAL_PROCESSING_MINUTES.min} to {WITHDRAWAL_PROCESSING_MINUTES.max} minutes. You can follow it in the Settlements tab of
              Transactions.
            </p>
          </div>
          <dl className="divide-y divide-line rounded-lg border border-line px-4 text-left">
            <Row label="Status" value={<Badge tone="warning">Pending</Badge>} />
            <Row label="Taken from your balance" value={<span className="whitespace-nowrap">{formatMoney(done.amount, 'USD')}</span>} />
            <Row label="Reference" value={<span className="font-mono text-xs">{done.id}</span>} />
          </dl>
        </div>
      )}
    </Dialog>
  );
}
