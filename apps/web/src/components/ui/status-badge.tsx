import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const TONES = {
  success: 'bg-success-soft text-success ring-success/20',
  info: 'bg-info-soft text-info ring-info/20',
  warning: 'bg-warning-soft text-warning ring-warning/25',
  neutral: 'bg-canvas text-muted ring-line',
  danger: 'bg-danger-soft text-danger ring-danger/20',
} as const;
export type BadgeTone = keyof typeof TONES;

/**
 * One meaning per colour, in every table that shows a status (transactions, trades, settlements, reports):
 * green: done as asked; blue: on its way, nothing to do; amber: waiting on someone (approval, KYC, liquidity);
 * red: failed or refused; grey: ended without moving money (expired, cancelled, refunded).
 */
const STATUS_TONES: Record<string, BadgeTone> = {
  complete: 'success',
  settlement_complete: 'success',
  created: 'info',
  requested: 'info',
  process: 'info',
  processing: 'info',
  in_progress: 'info',
  data_downloaded: 'info',
  pending: 'info',
  pending_refund: 'info',
  refund_processing: 'info',
  pending_settlement: 'info',
  pending_confirmation: 'info',
  pending_hash_confirmation: 'info',
  hash_confirmation_received: 'info',
  settlement_pending: 'info',
  settlement_processing: 'info',
  pending_approval: 'warning',
  pending_kyc: 'warning',
  pending_liquidity: 'warning',
  failed: 'danger',
  denied: 'danger',
  refund_failed: 'danger',
  settlement_failed: 'danger',
  expired: 'neutral',
  cancelled: 'neutral',
  refunded: 'neutral',
};

/** The colour of a transaction, settlement or report status (unknown ones are grey). */
export const statusTone = (status: string | null | undefined): BadgeTone => STATUS_TONES[(status ?? '').toLowerCase()] ?? 'neutral';

/**
 * A status as a small pill with a dot: readable at a glance in a table, and by its text alone. Give `status` (the
 * raw value) to colour it by the shared meaning, or `tone` for a status of another kind.
 */
export function StatusBadge({ tone, status, children, className }: { tone?: BadgeTone; status?: string; children: ReactNode; className?: string }) {
  const t = tone ?? statusTone(status);
  return (
    <span
      data-tone={t}
      className={cn('inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[t], className)}
    >
      <span className="size-1.5 shrink-0 rounded-full bg-current" aria-hidden="true" />
      {children}
    </span>
  );
}
