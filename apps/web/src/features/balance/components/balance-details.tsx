import { ArrowDownLeft, ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { formatDate, formatMoney, formatSignedMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { movementLink, useBalanceOverview } from '../api/balance-overview.ts';
import { balanceMessages, type BalanceKey } from '../messages.ts';
import { StatementDownload } from './statement-download.tsx';

const signed = (amount: string, currency: string) => formatSignedMoney(amount, currency, { plus: true });

/** The parts of what is pending, each on its own line. */
const PENDING_PARTS = ['withdrawals', 'disbursements'] as const;

/** What is reserved and under way (withdrawals, disbursements), each with its currency. */
export function PendingCard() {
  const t = useT(balanceMessages);
  const overview = useBalanceOverview();
  const o = overview.data;
  return (
    <Card className="p-6">
      <p className="text-sm font-medium text-muted">{t('pending.title')}</p>
      <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums sm:text-4xl" data-testid="usd-pending">
        {o ? formatMoney(o.pending.total, o.currency) : <span className="inline-block h-10 w-40 animate-pulse rounded bg-canvas" aria-label={t('loading')} />}
      </p>
      <p className="mt-1 text-xs text-muted">{t('pending.body')}</p>
      {o && (
        <dl className="mt-4 space-y-1.5 text-sm">
          {PENDING_PARTS.map((part) => (
            <div key={part} className="flex justify-between gap-4">
              <dt className="text-muted">{t(`pending.${part}`)}</dt>
              <dd className="tabular-nums" data-testid={`pending-${part}`}>
                {formatMoney(o.pending[part], o.currency)}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {overview.isError && <p className="mt-3 text-sm text-danger">{t('pending.error', { message: overview.error.message })}</p>}
    </Card>
  );
}

/** The last ledger entries: what each was, when (UTC), the amount with its currency, a link to its transaction. */
export function RecentMovements() {
  const t = useT(balanceMessages);
  const overview = useBalanceOverview();
  return (
    <section aria-labelledby="recent-movements">
      <h2 id="recent-movements" className="mb-3 mt-8 text-base font-semibold">
        {t('recent.title')}
      </h2>
      {overview.isPending ? (
        <Card className="h-24 animate-pulse" />
      ) : overview.isError ? null : overview.data.recent.length === 0 ? (
        <Card className="px-6 py-8 text-sm text-muted">{t('recent.empty')}</Card>
      ) : (
        <Card>
          <ul className="divide-y divide-line" data-testid="recent-movements">
            {overview.data.recent.map((m) => {
              const to = movementLink(m.kind, m.reference);
              const credit = !m.amount.startsWith('-');
              // a known kind of entry in the reader's language; another the server's words
              const kindKey = `kind.${m.kind}`;
              const description = kindKey in balanceMessages.en ? t(kindKey as BalanceKey) : m.description;
              return (
                <li key={m.id} className="flex items-center gap-3 px-4 py-3 sm:px-6">
                  <span
                    className={`flex size-8 shrink-0 items-center justify-center rounded-full ${credit ? 'bg-success-soft text-success' : 'bg-canvas text-muted'}`}
                    aria-hidden="true"
                  >
                    {credit ? <ArrowDownLeft className="size-4" /> : <ArrowUpRight className="size-4" />}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium">{description}</span>
                    <span className="block text-xs text-muted">
                      {formatDate(m.createdAt)}
                      {to && (
                        <>
                          {' · '}
                          <Link to={to} className="font-mono underline underline-offset-2 hover:text-ink" aria-label={`${description} ${m.reference}`}>
                            {m.reference.slice(0, 8)}
                          </Link>
                        </>
                      )}
                    </span>
                  </span>
                  <span className={`shrink-0 text-sm font-semibold tabular-nums ${credit ? 'text-success' : ''}`}>{signed(m.amount, m.currency)}</span>
                </li>
              );
            })}
          </ul>
        </Card>
      )}
      <StatementDownload />
    </section>
  );
}
