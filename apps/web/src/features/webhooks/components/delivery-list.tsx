import { ChevronDown, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { DELIVERY_STATUSES, type DeliveryStatus, type Webhook, type WebhookDelivery } from '@portal/contract/webhooks';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate, formatCount } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { ACTIVITY_PAGE_SIZE, useWebhookActivity } from '../api/activity.ts';
import { useResendDelivery } from '../api/resend-delivery.ts';
import { webhooksMessages } from '../messages.ts';
import { AttemptStatus, DeliveryStatusBadge } from './status-badge.tsx';

const ALL = 'all';

/** Deliveries newest first, filterable by endpoint and status; each opens to its attempts, its body and a resend. */
export function DeliveryList({ webhooks, canEdit }: { webhooks: Webhook[]; canEdit: boolean }) {
  const t = useT(webhooksMessages);
  const [webhookId, setWebhookId] = useState(ALL);
  const [status, setStatus] = useState(ALL);
  const [startIndex, setStartIndex] = useState(0);
  const [open, setOpen] = useState<string>();
  const activity = useWebhookActivity({
    startIndex,
    ...(webhookId !== ALL ? { webhookId } : {}),
    ...(status !== ALL ? { status: status as DeliveryStatus } : {}),
  });
  const rows = activity.data?.activities ?? [];
  const total = activity.data?.total ?? 0;
  const filter = (set: (v: string) => void) => (v: string) => {
    set(v);
    setStartIndex(0);
  };

  return (
    <div>
      <div className="flex flex-col gap-3 border-b border-line px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold">{t('deliveries.title')}</h2>
          <p className="text-sm text-muted">{t('deliveries.body')}</p>
        </div>
        <div className="grid grid-cols-1 gap-2 sm:flex">
          <SearchableSelect
            className="sm:w-56"
            label={t('deliveries.endpoint')}
            options={[{ value: ALL, label: t('deliveries.allEndpoints') }, ...webhooks.map((w) => ({ value: w.id, label: w.url }))]}
            value={webhookId}
            onChange={filter(setWebhookId)}
          />
          <SearchableSelect
            className="sm:w-40"
            label={t('deliveries.status')}
            options={[{ value: ALL, label: t('deliveries.allStatuses') }, ...DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`deliveryStatus.${s}`) }))]}
            value={status}
            onChange={filter(setStatus)}
          />
        </div>
      </div>
      {activity.isPending ? (
        <LoadingBlock label={t('loading')} />
      ) : activity.isError ? (
        <ErrorAlert error={activity.error} className="m-5" />
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
          <History className="size-8 text-brand-700" aria-hidden="true" />
          <p className="font-semibold">{t('deliveries.emptyTitle')}</p>
          <p className="max-w-sm text-sm text-muted">{t('deliveries.emptyBody')}</p>
        </div>
      ) : (
        <ul className="divide-y divide-line">
          {rows.map((d) => (
            <DeliveryRow key={d.id} delivery={d} open={open === d.id} onToggle={() => setOpen(open === d.id ? undefined : d.id)} canEdit={canEdit} />
          ))}
        </ul>
      )}
      {total > 0 && (
        <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3 text-sm">
          <p className="text-muted" data-testid="delivery-page-summary">
            {t('deliveries.page', { from: startIndex + 1, to: startIndex + rows.length, total: `${formatCount(total)}${total >= 10_000 ? '+' : ''}` })}
          </p>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={startIndex === 0 || activity.isFetching}
              onClick={() => setStartIndex(Math.max(0, startIndex - ACTIVITY_PAGE_SIZE))}
            >
              {t('deliveries.previous')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={startIndex + ACTIVITY_PAGE_SIZE >= total || activity.isFetching}
              onClick={() => setStartIndex(startIndex + ACTIVITY_PAGE_SIZE)}
            >
              {t('deliveries.next')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

function DeliveryRow({ delivery: d, open, onToggle, canEdit }: { delivery: WebhookDelivery; open: boolean; onToggle: () => void; canEdit: boolean }) {
  const t = useT(webhooksMessages);
  const resend = useResendDelivery();
  const last = d.attempts.at(-1);
  const retrying = d.status === 'pending' && d.attempts.length > 0;
  return (
    <li data-testid="delivery-row">
      <button type="button" className="flex w-full items-center gap-3 px-5 py-3 text-left hover:bg-canvas/70" aria-expanded={open} onClick={onToggle}>
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-2">
            <DeliveryStatusBadge status={d.status} retrying={retrying} />
            <span className="font-mono text-xs font-medium text-ink">{d.eventType}</span>
          </span>
          <span className="mt-1 block truncate text-xs text-muted">{d.url}</span>
        </span>
        <span className="shrink-0 text-right text-xs text-muted">
          <span className="block">{formatDate(d.createdAt)}</span>
          <span className="mt-1 block">
            {t('deliveries.attempts', { count: d.attempts.length })}
            {last?.statusCode ? ` · ${last.statusCode}` : ''}
          </span>
        </span>
        <ChevronDown className={cn('size-4 shrink-0 text-muted transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open && (
        <div className="space-y-4 bg-canvas/60 px-5 pb-5 pt-2">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted">{t('deliveries.eventId')}</dt>
            <dd className="break-all font-mono text-xs" data-testid="delivery-event-id">
              {d.eventId}
            </dd>
            <dt className="text-muted">{t('deliveries.endpoint')}</dt>
            <dd className="break-all">{d.url}</dd>
            {d.nextAttemptAt && (
              <>
                <dt className="text-muted">{t('deliveries.nextAttempt')}</dt>
                <dd>{formatDate(d.nextAttemptAt)}</dd>
              </>
            )}
            {d.note && (
              <>
                <dt className="text-muted">{t('deliveries.note')}</dt>
                <dd>{localizeMessage(d.note)}</dd>
              </>
            )}
          </dl>
          <div>
            <p className="mb-2 text-xs font-medium uppercase tracking-wide text-muted">{t('deliveries.attemptsTitle')}</p>
            {d.attempts.length === 0 ? (
              <p className="text-sm text-muted">{t(d.status === 'pending' ? 'deliveries.sendingNow' : 'deliveries.noAttempt')}</p>
            ) : (
              <ol className="space-y-2">
                {d.attempts.map((a, i) => (
                  <li key={i} className="rounded-lg border border-line bg-white px-3 py-2.5" data-testid="attempt-row">
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                      <AttemptStatus statusCode={a.statusCode} error={a.error} />
                      <span>{formatDate(a.attemptedAt)}</span>
                      <span className="text-muted">{formatCount(a.durationMs)} ms</span>
                      {a.trigger === 'manual' && (
                        <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-800" title={t('deliveries.manualTitle')}>
                          {t('deliveries.manual')}
                        </span>
                      )}
                    </div>
                    {(a.error || a.responseSnippet) && (
                      <p className="mt-1.5 break-all font-mono text-xs text-muted" data-testid="attempt-response">
                        {a.error ?? a.responseSnippet}
                      </p>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
          <details className="rounded-lg border border-line bg-white">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium">{t('deliveries.requestBody')}</summary>
            <pre className="overflow-x-auto border-t border-line p-3 font-mono text-xs">{JSON.stringify(d.payload, null, 2)}</pre>
          </details>
          {canEdit && d.status !== 'pending' && (
            <Button
              variant="secondary"
              size="sm"
              loading={resend.isPending}
              onClick={() =>
                resend.mutate(d.id, {
                  onSuccess: () => toast.show(t('deliveries.resent')),
                  onError: (err) => toast.show(err.message),
                })
              }
            >
              <RotateCcw className="size-3.5" aria-hidden="true" />
              {t('deliveries.resend')}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
