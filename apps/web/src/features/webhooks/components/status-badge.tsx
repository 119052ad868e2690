import type { DeliveryStatus, Webhook } from '@portal/contract/webhooks';
import { cn } from '../../../components/ui/cn.ts';
import { useT } from '../../../lib/i18n.ts';
import { webhooksMessages } from '../messages.ts';

const badge = 'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const dot = 'size-1.5 rounded-full bg-current';

/** Active, Disabled or Failing, as an endpoint's list shows it. */
export function EndpointStatus({ webhook }: { webhook: Pick<Webhook, 'active' | 'state'> }) {
  const t = useT(webhooksMessages);
  if (!webhook.active) return <span className={cn(badge, 'bg-canvas text-muted')}>{t('endpointStatus.disabled')}</span>;
  if (webhook.state === 'failing')
    return (
      <span className={cn(badge, 'bg-danger-soft text-danger')}>
        <span className={dot} aria-hidden="true" />
        {t('endpointStatus.failing')}
      </span>
    );
  return (
    <span className={cn(badge, 'bg-success-soft text-success')}>
      <span className={dot} aria-hidden="true" />
      {t('endpointStatus.active')}
    </span>
  );
}

const DELIVERY_TONES: Record<DeliveryStatus, string> = {
  succeeded: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
  pending: 'bg-warning-soft text-warning',
};

export function DeliveryStatusBadge({ status, retrying }: { status: DeliveryStatus; retrying?: boolean }) {
  const t = useT(webhooksMessages);
  return (
    <span className={cn(badge, DELIVERY_TONES[status])}>{t(status === 'pending' && retrying ? 'deliveryStatus.retrying' : `deliveryStatus.${status}`)}</span>
  );
}

/** An attempt's HTTP status (2xx green, else red), or what went wrong when there was no answer. */
export function AttemptStatus({ statusCode, error }: { statusCode: number | null; error: string | null }) {
  const t = useT(webhooksMessages);
  if (statusCode === null)
    return <span className={cn(badge, 'bg-danger-soft text-danger')}>{t(error?.startsWith('Timed out') ? 'attempt.timeout' : 'attempt.noAnswer')}</span>;
  const ok = statusCode >= 200 && statusCode < 300;
  return <span className={cn(badge, 'font-mono', ok ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger')}>{statusCode}</span>;
}
