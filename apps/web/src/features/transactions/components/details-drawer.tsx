import { ExternalLink } from 'lucide-react';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import type { SearchTable } from '@portal/contract/transactions';
import { useT } from '../../../lib/i18n.ts';
import { usePaymentOrder } from '../api/payment-order.ts';
import { detailSections, paymentOrderSections, type DetailField, type DetailSection } from '../details.ts';
import { transactionsMessages } from '../messages.ts';
import type { Row } from '../tables.ts';

function Value({ f }: { f: DetailField }) {
  const t = useT(transactionsMessages);
  if (f.status) return <StatusBadge status={f.status}>{f.value}</StatusBadge>;
  if (!f.copy) return <span className="tabular-nums">{f.value}</span>;
  return (
    <span className="flex items-start gap-1">
      {f.href ? (
        <a
          href={f.href}
          target="_blank"
          rel="noopener noreferrer"
          className="min-w-0 break-all font-mono text-[13px] text-brand-800 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700"
        >
          {f.value}
          <ExternalLink className="ml-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
          <span className="sr-only"> {t('drawer.opensExplorer')}</span>
        </a>
      ) : (
        <span className="min-w-0 break-all font-mono text-[13px]">{f.value}</span>
      )}
      <CopyButton value={f.value} label={f.label} className="-mt-1" />
    </span>
  );
}

/** One group of fields under its heading. */
function Section({ s }: { s: DetailSection }) {
  if (s.fields.length === 0) return null;
  return (
    <section aria-labelledby={`details-${s.key}`}>
      <h3 id={`details-${s.key}`} className="mb-2 border-b border-line pb-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
        {s.title}
      </h3>
      <dl className="grid grid-cols-[minmax(0,9rem)_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
        {s.fields.map((f) => (
          <div key={f.label} className="contents" data-field={f.label}>
            <dt className="text-muted">{f.label}</dt>
            <dd className="min-w-0 font-medium">
              <Value f={f} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** An initiated payment's order: fee, total and the timeline of its states (updated live). */
function PaymentOrder({ id }: { id: string }) {
  const t = useT(transactionsMessages);
  const order = usePaymentOrder(id);
  if (order.isPending) return <p className="text-sm text-muted">{t('drawer.loadingTimeline')}</p>;
  if (order.isError) return <p className="text-sm text-muted">{t('drawer.timelineError')}</p>;
  if (!order.data) return null;
  return (
    <>
      {paymentOrderSections(order.data).map((s) => (
        <Section key={s.key} s={s} />
      ))}
    </>
  );
}

/** One transaction in a side drawer: its fields grouped (summary, parties, amounts, chain) and formatted. */
export function DetailsDrawer({ table, row, onClose }: { table: SearchTable; row: Row | undefined; onClose: () => void }) {
  const t = useT(transactionsMessages);
  return (
    <Dialog open={!!row} onOpenChange={(open) => !open && onClose()} title={t('drawer.title')} width={480} side>
      {row && (
        <div className="flex flex-col gap-6">
          {detailSections(table, row).map((s) => (
            <Section key={s.key} s={s} />
          ))}
          {table === 'initiate-payments' && <PaymentOrder id={String(row.id)} />}
        </div>
      )}
    </Dialog>
  );
}
