import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_NUMBER_TYPE_LABELS, channelTypeName } from '@portal/contract/coverage';
import type { Payment, PaymentKind, PaymentQuote } from '@portal/contract/payments';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatAmount, formatMoney, formatRate } from '../../../lib/format.ts';
import { newId } from '../../../lib/ids.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useCreatePayment } from '../api/create-payment.ts';
import { fetchQuote } from '../api/quote.ts';
import { useChannels, useMarkets, useNetworks } from '../api/reference.ts';
import { PaymentResult } from '../components/payment-result.tsx';
import { EMPTY_DRAFT, channelsFor, countriesFor, draftProblems, networksFor, type PaymentDraft } from '../payment-form.ts';

const KINDS: { value: PaymentKind; label: string }[] = [
  { value: 'disbursement', label: 'Pay out' },
  { value: 'collection', label: 'Collect' },
];

function Select({
  label,
  value,
  onChange,
  error,
  children,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  children: ReactNode;
  disabled?: boolean;
}) {
  const id = `pay-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {children}
      </select>
      {error && (
        <p className="text-xs text-danger" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function QuoteRow({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={cn('flex justify-between gap-4 py-1.5 text-sm', strong && 'border-t border-line pt-2.5 font-semibold')}>
      <dt className={strong ? 'text-ink' : 'text-muted'}>{label}</dt>
      <dd className="whitespace-nowrap text-right tabular-nums text-ink">{children}</dd>
    </div>
  );
}

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong. Try again.');

/**
 * /payments/initiate: a disbursement (pay out local currency to a recipient) or a collection (collect from a payer),
 * with the quote (rate, fee, what it takes from or brings to the balance) shown before it is confirmed. The
 * confirmation's sequenceId is made when the quote is shown, so a retry of the same confirmation books it once.
 */
export function InitiatePaymentScreen() {
  const role = useSession((s) => s.user?.role);
  const channels = useChannels();
  const networks = useNetworks();
  const markets = useMarkets();
  const create = useCreatePayment();
  const [draft, setDraft] = useState<PaymentDraft>(EMPTY_DRAFT);
  const [showProblems, setShowProblems] = useState(false);
  const [quote, setQuote] = useState<{ quote: PaymentQuote; sequenceId: string } | undefined>();
  const [quoting, setQuoting] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState<Payment | undefined>();

  const allChannels = useMemo(() => channels.data?.channels ?? [], [channels.data]);
  const served = useMemo(() => markets.data?.markets ?? [], [markets.data]);
  const countries = useMemo(() => countriesFor(draft.kind, allChannels, served), [draft.kind, allChannels, served]);
  const countryChannels = channelsFor(draft.kind, draft.country, allChannels, served);
  const loading = channels.isPending || markets.isPending;
  const channel = countryChannels.find((c) => c.id === draft.channelId);
  const reachable = networksFor(draft.country, draft.channelId, networks.data?.networks ?? []);
  const network = reachable.find((n) => n.id === draft.networkId);
  const problems = draftProblems(draft, channel, network);
  const shown = showProblems ? problems : {};
  const canInitiate = role === 'admin' || role === 'treasury';

  const set = (patch: Partial<PaymentDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setQuote(undefined);
    setError(undefined);
  };

  const review = async (e: FormEvent) => {
    e.preventDefault();
    setShowProblems(true);
    if (Object.keys(problems).length > 0) return;
    setQuoting(true);
    setError(undefined);
    try {
      const q = await fetchQuote({ kind: draft.kind, country: draft.country, channelId: draft.channelId, amount: draft.amount.trim() });
      setQuote({ quote: q, sequenceId: newId() });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setQuoting(false);
    }
  };

  const confirm = () => {
    if (!quote) return;
    const common = {
      country: draft.country,
      channelId: draft.channelId,
      amount: draft.amount.trim(),
      sequenceId: quote.sequenceId,
      ...(draft.reference.trim() ? { reference: draft.reference.trim() } : {}),
    };
    const input =
      draft.kind === 'disbursement'
        ? {
            kind: 'disbursement' as const,
            body: { ...common, networkId: draft.networkId, accountNumber: draft.accountNumber.trim(), recipient: { name: draft.name.trim() } },
          }
        : {
            kind: 'collection' as const,
            body: { ...common, ...(draft.accountNumber.trim() ? { accountNumber: draft.accountNumber.trim() } : {}), payer: { name: draft.name.trim() } },
          };
    create.mutate(input, {
      onSuccess: (r) => setCreated(r.payment),
      onError: (err) => setError(messageOf(err)),
    });
  };

  const again = () => {
    setCreated(undefined);
    setQuote(undefined);
    setShowProblems(false);
    setDraft((d) => ({ ...EMPTY_DRAFT, kind: d.kind, country: d.country, channelId: d.channelId }));
    create.reset();
  };

  const accountLabel =
    draft.kind === 'collection' ? "Payer's phone number" : network ? ACCOUNT_NUMBER_TYPE_LABELS[network.accountNumberType] : 'Account number';
  const q = quote?.quote;
  const disbursing = draft.kind === 'disbursement';

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Initiate payment"
        description="Pay out local currency to a recipient, or collect it from a payer. You see the rate and fee before you confirm."
        actions={
          <Link
            to="/payments"
            className="inline-flex h-10 items-center rounded-lg border border-line bg-white px-4 text-sm font-medium text-ink hover:bg-canvas"
          >
            All payments
          </Link>
        }
      />
      {!canInitiate && (
        <Alert tone="info" className="mb-4">
          Only admin or treasury users can initiate payments.
        </Alert>
      )}
      {created ? (
        <PaymentResult created={created} onAnother={again} />
      ) : (
        <Card className="p-5">
          <form onSubmit={(e) => void review(e)} noValidate aria-label="Payment details">
            <div role="radiogroup" aria-label="Kind of payment" className="inline-flex rounded-lg border border-line bg-canvas p-0.5">
              {KINDS.map((k) => (
                <button
                  key={k.value}
                  type="button"
                  role="radio"
                  aria-checked={draft.kind === k.value}
                  onClick={() => set({ kind: k.value, country: '', channelId: '', networkId: '' })}
                  className={cn(
                    'rounded-md px-4 py-1.5 text-sm font-medium',
                    draft.kind === k.value ? 'bg-white text-ink shadow-sm' : 'text-muted hover:text-ink',
                  )}
                >
                  {k.label}
                </button>
              ))}
            </div>
            {(channels.isError || networks.isError || markets.isError) && (
              <Alert tone="danger" className="mt-4">
                The channels could not be loaded. Reload the page to try again.
              </Alert>
            )}
            <div className="mt-5 grid gap-4 sm:grid-cols-2">
              <Select
                label="Country"
                value={draft.country}
                error={shown.country}
                disabled={loading}
                onChange={(v) => set({ country: v, channelId: '', networkId: '' })}
              >
                <option value="">
                  {loading ? 'Loading…' : countries.length === 0 && !markets.isError ? 'No country enabled for payments' : 'Choose a country'}
                </option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </Select>
              <Select
                label="Channel"
                value={draft.channelId}
                error={shown.channelId}
                disabled={!draft.country}
                onChange={(v) => set({ channelId: v, networkId: '' })}
              >
                <option value="">Choose a channel</option>
                {countryChannels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {channelTypeName(c.channelType)} ({c.currency} {formatMoney(c.min)} – {formatMoney(c.max)})
                  </option>
                ))}
              </Select>
              {disbursing && (
                <Select label="Network" value={draft.networkId} error={shown.networkId} disabled={!draft.channelId} onChange={(v) => set({ networkId: v })}>
                  <option value="">Choose a network</option>
                  {reachable.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.name}
                    </option>
                  ))}
                </Select>
              )}
              <TextField
                label={disbursing ? "Recipient's name" : "Payer's name"}
                value={draft.name}
                error={shown.name}
                onChange={(e) => set({ name: e.target.value })}
                autoComplete="off"
                maxLength={120}
              />
              {(disbursing || channel?.channelType === 'momo') && (
                <TextField
                  label={accountLabel}
                  value={draft.accountNumber}
                  error={shown.accountNumber}
                  onChange={(e) => set({ accountNumber: e.target.value })}
                  inputMode={network?.accountNumberType === 'app' ? 'text' : 'numeric'}
                  autoComplete="off"
                />
              )}
              <TextField
                label={`Amount${channel ? ` (${channel.currency})` : ''}`}
                value={draft.amount}
                error={shown.amount}
                onChange={(e) => set({ amount: e.target.value })}
                inputMode="decimal"
                placeholder="0.00"
                hint="Sandbox: an amount ending in 1 fails, 2 expires, 3 is refunded, 4 is denied"
              />
              <TextField
                label="Reference (optional)"
                value={draft.reference}
                onChange={(e) => set({ reference: e.target.value })}
                maxLength={64}
                autoComplete="off"
              />
            </div>
            {error && (
              <Alert tone="danger" className="mt-4">
                {error}
              </Alert>
            )}
            {!q && (
              <div className="mt-5 flex justify-end">
                <Button type="submit" loading={quoting} disabled={!canInitiate}>
                  Review
                </Button>
              </div>
            )}
          </form>
          {q && (
            <section aria-label="Quote" className="mt-5 rounded-lg border border-line bg-canvas p-4">
              <h2 className="text-sm font-semibold text-ink">{disbursing ? 'You pay out' : 'You collect'}</h2>
              <dl className="mt-2">
                <QuoteRow label="Amount">{formatAmount(q.amount, q.currency)}</QuoteRow>
                <QuoteRow label="Rate">{formatRate(q.rate, 'USD', q.currency)}</QuoteRow>
                <QuoteRow label="In USD">{formatAmount(q.amountUsd, 'USD')}</QuoteRow>
                <QuoteRow label="Fee">{formatAmount(q.feeUsd, 'USD')}</QuoteRow>
                <QuoteRow label={disbursing ? 'Taken from your balance' : 'Credited to your balance when paid'} strong>
                  {formatAmount(q.totalUsd, 'USD')}
                </QuoteRow>
              </dl>
              <p className="mt-2 text-xs text-muted">Balance: {formatAmount(q.balanceUsd, 'USD')}</p>
              <div className="mt-4 flex flex-wrap justify-end gap-3">
                <Button variant="secondary" onClick={() => setQuote(undefined)} disabled={create.isPending}>
                  Edit
                </Button>
                <Button onClick={confirm} loading={create.isPending} disabled={!canInitiate}>
                  Confirm {disbursing ? 'payout' : 'collection'}
                </Button>
              </div>
            </section>
          )}
        </Card>
      )}
    </div>
  );
}
