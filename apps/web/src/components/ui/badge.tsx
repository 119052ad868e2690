import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const TONES = {
  neutral: 'bg-canvas text-muted ring-line',
  success: 'bg-success-soft text-success ring-success/20',
  warning: 'bg-warning-soft text-warning ring-warning/20',
  danger: 'bg-danger-soft text-danger ring-danger/20',
  brand: 'bg-brand-50 text-brand-800 ring-brand-600/20',
} as const;

export type BadgeTone = keyof typeof TONES;

/** A small status label. */
export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone], className)}>
      {children}
    </span>
  );
}
