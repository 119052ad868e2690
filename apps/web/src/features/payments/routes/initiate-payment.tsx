import { can } from '@portal/contract/permissions';
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Payment, PaymentKind, PaymentQuote } from '@portal/contract/payments';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { newId } from '../../../lib/ids.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useCreatePayment } from '../api/create-payment.ts';
import { fetchQuote } from '../api/quote.ts';
import { useChannels, useMarkets, useNetworks } from '../api/reference.ts';
import { PaymentFields } from '../components/payment-fields.tsx';
import { PaymentQuoteSummary } from '../components/payment-quote.tsx';
import { PaymentResult } from '../components/payment-result.tsx';
import { paymentsMessages } from '../messages.ts';
import { EMPTY_DRAFT, channelsFor, countriesFor, draftProblems, networksFor, type PaymentDraft } from '../payment-form.ts';

const KINDS: readonly PaymentKind[] = ['disbursement', 'collection'];

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

  const q = quote?.quote;
  const disbursing = draft.kind === 'disbursement';

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Link to="/payments" className={buttonClass('secondary')}>
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
            <PaymentFields
              draft={draft}
              set={set}
              shown={shown}
              loading={loading}
              noMarkets={markets.isError}
              countries={countries}
              countryChannels={countryChannels}
              reachable={reachable}
              channel={channel}
              network={network}
            />
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
            <PaymentQuoteSummary
              quote={q}
              disbursing={disbursing}
              pending={create.isPending}
              canInitiate={canInitiate}
              onEdit={() => setQuote(undefined)}
              onConfirm={confirm}
            />
          )}
        </Card>
      )}
    </div>
  );
}
