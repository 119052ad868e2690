import type { DeliveryStatus, Webhook } from '@portal/contract/webhooks';
import { cn } from '../../../components/ui/cn.ts';

const badge = 'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const dot = 'size-1.5 rounded-full bg-current';

/** Active, Disabled or Failing, as an endpoint's list shows it. */
export function EndpointStatus({ webhook }: { webhook: Pick<Webhook, 'active' | 'state'> }) {
  if (!webhook.active) return <span className={cn(badge, 'bg-canvas text-muted')}>Disabled</span>;
  if (webhook.state === 'failing')
    return (
      <span className={cn(badge, 'bg-danger-soft text-danger')}>
        <span className={dot} aria-hidden="true" />
        Failing
      </span>
    );
  return (
    <span className={cn(badge, 'bg-success-soft text-success')}>
      <span className={dot} aria-hidden="true" />
      Active
    </span>
  );
}

const DELIVERY: Record<DeliveryStatus, [string, string]> = {
  succeeded: ['Succeeded', 'bg-success-soft text-success'],
  failed: ['Failed', 'bg-danger-soft text-danger'],
  pending: ['Pending', 'bg-warning-soft text-warning'],
};

export function DeliveryStatusBadge({ status, retrying }: { status: DeliveryStatus; retrying?: boolean }) {
  const [label, tone] = DELIVERY[status];
  return <span className={cn(badge, tone)}>{status === 'pending' && retrying ? 'Retrying' : label}</span>;
}

/** An attempt's HTTP status (2xx green, else red), or what went wrong when there was no answer. */
export function AttemptStatus({ statusCode, error }: { statusCode: number | null; error: string | null }) {
  if (statusCode === null) return <span className={cn(badge, 'bg-danger-soft text-danger')}>{error?.startsWith('Timed out') ? 'Timeout' : 'No answer'}</span>;
  const ok = statusCode >= 200 && statusCode < 300;
  return <span className={cn(badge, 'font-mono', ok ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger')}>{statusCode}</span>;
}
