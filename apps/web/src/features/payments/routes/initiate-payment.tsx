import { can } from '@portal/contract/permissions';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Payment, PaymentKind, PaymentQuote } from '@portal/contract/payments';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatAmount, formatMoney, formatRate } from '../../../lib/format.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { newId } from '../../../lib/ids.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useCreatePayment } from '../api/create-payment.ts';
import { fetchQuote } from '../api/quote.ts';
import { useChannels, useMarkets, useNetworks } from '../api/reference.ts';
import { PaymentResult } from '../components/payment-result.tsx';
import { paymentsMessages } from '../messages.ts';
import { EMPTY_DRAFT, accountTypeName, channelTypeName, channelsFor, countriesFor, draftProblems, networksFor, type PaymentDraft } from '../payment-form.ts';

const KINDS: readonly PaymentKind[] = ['disbursement', 'collection'];

function Select({
  name,
  label,
  value,
  onChange,
  error,
  children,
  disabled,
}: {
  /** the field's name, the same in every language (its id) */
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  children: ReactNode;
  disabled?: boolean;
}) {
  const id = `pay-${name}`;
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

// the server's message is in the page's language already
const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : translator(paymentsMessages)('form.failed'));

/**
 * /payments/initiate: a disbursement (pay out local currency to a recipient) or a collection (collect from a payer),
 * with the quote (rate, fee, what it takes from or brings to the balance) shown before it is confirmed. The
 * confirmation's sequenceId is made when the quote is shown, so a retry of the same confirmation books it once.
 */
export function InitiatePaymentScreen() {
  const t = useT(paymentsMessages);
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
  const canInitiate = can(role, 'initiatePayments');

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

  const accountLabel = draft.kind === 'collection' ? t('form.payerPhone') : network ? accountTypeName(network.accountNumberType) : t('form.accountNumber');
  const q = quote?.quote;
  const disbursing = draft.kind === 'disbursement';

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Link
            to="/payments"
            className="inline-flex h-10 items-center rounded-lg border border-line bg-white px-4 text-sm font-medium text-ink hover:bg-canvas"
          >
            {t('allPayments')}
          </Link>
        }
      />
      {!canInitiate && (
        <Alert tone="info" className="mb-4">
          {t('readOnly')}
        </Alert>
      )}
      {created ? (
        <PaymentResult created={created} onAnother={again} />
      ) : (
        <Card className="p-5">
          <form onSubmit={(e) => void review(e)} noValidate aria-label={t('form.label')}>
            <div role="radiogroup" aria-label={t('form.kind')} className="inline-flex rounded-lg border border-line bg-canvas p-0.5">
              {KINDS.map((k) => (
                <button
                  key={k}
                  type="button"
                  role="radio"
                  aria-checked={draft.kind === k}
                  onClick={() => set({ kind: k, country: '', channelId: '', networkId: '' })}
                  className={cn('rounded-md px-4 py-1.5 text-sm font-medium', draft.kind === k ? 'bg-white text-ink shadow-sm' : 'text-muted hover:text-ink')}
                >
                  {t(k === 'disbursement' ? 'kind.disbursement' : 'kind.collection')}
                </button>
              ))}
            </div>
            {(channels.isError || networks.isError || markets.isError) && (
              <Alert tone="danger" className="mt-4">
                {t('form.channelsError')}
              </Alert>
            )}
            <div className="mt-5 grid gap-4 sm:grid-cols-2">
              <Select
                name="country"
                label={t('form.country')}
                value={draft.country}
                error={shown.country}
                disabled={loading}
                onChange={(v) => set({ country: v, channelId: '', networkId: '' })}
              >
                <option value="">
                  {loading ? t('form.loading') : countries.length === 0 && !markets.isError ? t('form.noCountry') : t('form.chooseCountry')}
                </option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </Select>
              <Select
                name="channel"
                label={t('form.channel')}
                value={draft.channelId}
                error={shown.channelId}
                disabled={!draft.country}
                onChange={(v) => set({ channelId: v, networkId: '' })}
              >
                <option value="">{t('form.chooseChannel')}</option>
                {countryChannels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {t('form.channelOption', { name: channelTypeName(c.channelType), currency: c.currency, min: formatMoney(c.min), max: formatMoney(c.max) })}
                  </option>
                ))}
              </Select>
              {disbursing && (
                <Select
                  name="network"
                  label={t('form.network')}
                  value={draft.networkId}
                  error={shown.networkId}
                  disabled={!draft.channelId}
                  onChange={(v) => set({ networkId: v })}
                >
                  <option value="">{t('form.chooseNetwork')}</option>
                  {reachable.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.name}
                    </option>
                  ))}
                </Select>
              )}
              <TextField
                label={disbursing ? t('form.recipientName') : t('form.payerName')}
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
                label={channel ? t('form.amountIn', { currency: channel.currency }) : t('form.amount')}
                value={draft.amount}
                error={shown.amount}
                onChange={(e) => set({ amount: e.target.value })}
                inputMode="decimal"
                placeholder="0.00"
                hint={t('form.sandboxHint')}
              />
              <TextField
                label={t('form.reference')}
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
                  {t('form.review')}
                </Button>
              </div>
            )}
          </form>
          {q && (
            <section aria-label={t('quote.label')} className="mt-5 rounded-lg border border-line bg-canvas p-4">
              <h2 className="text-sm font-semibold text-ink">{disbursing ? t('quote.payOut') : t('quote.collect')}</h2>
              <dl className="mt-2">
                <QuoteRow label={t('quote.amount')}>{formatAmount(q.amount, q.currency)}</QuoteRow>
                <QuoteRow label={t('quote.rate')}>{formatRate(q.rate, 'USD', q.currency)}</QuoteRow>
                <QuoteRow label={t('quote.inUsd')}>{formatAmount(q.amountUsd, 'USD')}</QuoteRow>
                <QuoteRow label={t('quote.fee')}>{formatAmount(q.feeUsd, 'USD')}</QuoteRow>
                <QuoteRow label={disbursing ? t('quote.taken') : t('quote.credited')} strong>
                  {formatAmount(q.totalUsd, 'USD')}
                </QuoteRow>
              </dl>
              <p className="mt-2 text-xs text-muted">{t('quote.balance', { amount: formatAmount(q.balanceUsd, 'USD') })}</p>
              <div className="mt-4 flex flex-wrap justify-end gap-3">
                <Button variant="secondary" onClick={() => setQuote(undefined)} disabled={create.isPending}>
                  {t('quote.edit')}
                </Button>
                <Button onClick={confirm} loading={create.isPending} disabled={!canInitiate}>
                  {disbursing ? t('quote.confirmPayout') : t('quote.confirmCollection')}
                </Button>
              </div>
            </section>
          )}
        </Card>
      )}
    </div>
  );
}
