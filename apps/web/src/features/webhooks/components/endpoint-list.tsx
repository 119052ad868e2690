import { KeyRound, Pencil, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import type { Webhook } from '@portal/contract/webhooks';
import { Button } from '../../../components/ui/button.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { webhooksMessages } from '../messages.ts';
import { EndpointStatus } from './status-badge.tsx';

const SHOWN_EVENTS = 3;

type Props = {
  webhooks: Webhook[];
  canEdit: boolean;
  testing?: string;
  onAdd: () => void;
  onEdit: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
  onTest: (webhook: Webhook) => void;
  onRoll: (webhook: Webhook) => void;
};

/** The partner's endpoints: address, status, events, and (admins) test, edit, delete. */
export function EndpointList({ webhooks, canEdit, testing, onAdd, onEdit, onDelete, onTest, onRoll }: Props) {
  const t = useT(webhooksMessages);
  if (webhooks.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-6 py-14 text-center">
        <WebhookIcon className="size-8 text-brand-700" aria-hidden="true" />
        <p className="font-semibold">{t('endpoints.emptyTitle')}</p>
        <p className="max-w-md text-sm text-muted">{t(canEdit ? 'endpoints.emptyAdmin' : 'endpoints.emptyViewer')}</p>
        {canEdit && (
          <Button className="mt-2" onClick={onAdd}>
            {t('endpoints.add')}
          </Button>
        )}
      </div>
    );
  }
  return (
    <ul className="divide-y divide-line">
      {webhooks.map((w) => (
        <li key={w.id} className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-start lg:gap-6" data-testid="webhook-row">
          <div className="min-w-0 flex-1 space-y-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <p className="break-all font-mono text-sm font-medium text-ink">{w.url}</p>
              <EndpointStatus webhook={w} />
            </div>
            {w.description && <p className="text-sm text-muted">{w.description}</p>}
            <div className="flex flex-wrap gap-1.5" aria-label={t('endpoints.events')}>
              {w.events.slice(0, SHOWN_EVENTS).map((e) => (
                <span key={e} className="rounded-md bg-canvas px-1.5 py-0.5 font-mono text-[11px] text-ink">
                  {e}
                </span>
              ))}
              {w.events.length > SHOWN_EVENTS && (
                <span className="px-1 py-0.5 text-xs text-muted">{t('endpoints.more', { count: w.events.length - SHOWN_EVENTS })}</span>
              )}
            </div>
            <p className="text-xs text-muted">
              {t('endpoints.added', { date: formatDate(w.createdAt) })}
              {w.state === 'failing' && w.failingSince ? ` · ${t('endpoints.failingSince', { date: formatDate(w.failingSince) })}` : ''}
            </p>
            {w.previousSecretExpiresAt && (
              <p className="text-xs text-warning">{t('endpoints.previousSecret', { date: formatDate(w.previousSecretExpiresAt) })}</p>
            )}
          </div>
          {canEdit && (
            <div className="flex shrink-0 flex-wrap gap-2">
              <Button variant="secondary" size="sm" loading={testing === w.id} onClick={() => onTest(w)} aria-label={t('endpoints.sendTestTo', { url: w.url })}>
                <Send className="size-3.5" aria-hidden="true" />
                {t('endpoints.sendTest')}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => onEdit(w)} aria-label={t('endpoints.editNamed', { url: w.url })}>
                <Pencil className="size-3.5" aria-hidden="true" />
                {t('endpoints.edit')}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => onRoll(w)} aria-label={t('endpoints.rollSecretOf', { url: w.url })}>
                <KeyRound className="size-3.5" aria-hidden="true" />
                {t('endpoints.rollSecret')}
              </Button>
              <Button variant="ghost" size="sm" className="text-danger" onClick={() => onDelete(w)} aria-label={t('endpoints.deleteNamed', { url: w.url })}>
                <Trash2 className="size-3.5" aria-hidden="true" />
                {t('endpoints.delete')}
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
