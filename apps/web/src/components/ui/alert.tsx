import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const TONES = {
  danger: 'border-danger/20 bg-danger-soft text-danger',
  warning: 'border-warning/20 bg-warning-soft text-warning',
  success: 'border-success/20 bg-success-soft text-success',
  info: 'border-brand-600/20 bg-brand-50 text-brand-800',
} as const;

export function Alert({ tone = 'info', children, className, testId }: { tone?: keyof typeof TONES; children: ReactNode; className?: string; testId?: string }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} data-testid={testId} className={cn('rounded-lg border px-3 py-2.5 text-sm', TONES[tone], className)}>
      {children}
    </div>
  );
}

/** The failure of a query or a mutation, in its own words; nothing while there is none. */
export function ErrorAlert({ error, className }: { error: Error | null | undefined; className?: string }) {
  if (!error) return null;
  return (
    <Alert tone="danger" className={className}>
      {error.message}
    </Alert>
  );
}
