import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const TONES = {
  success: 'bg-success-soft text-success ring-success/20',
  warning: 'bg-warning-soft text-warning ring-warning/25',
  neutral: 'bg-canvas text-muted ring-line',
  danger: 'bg-danger-soft text-danger ring-danger/20',
} as const;
export type BadgeTone = keyof typeof TONES;

/** A status as a small pill with a dot: readable at a glance in a table, and by its text alone. */
export function StatusBadge({ tone, children, className }: { tone: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone], className)}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
      {children}
    </span>
  );
}
