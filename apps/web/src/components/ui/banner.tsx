import type { LucideIcon } from 'lucide-react';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const TONES = {
  warning: { box: 'border-warning/25 bg-warning-soft text-warning', icon: '', close: 'hover:bg-warning/10' },
  brand: { box: 'border-brand-600/25 bg-brand-50 text-brand-900', icon: 'text-brand-700', close: 'hover:bg-brand-600/10' },
};

/**
 * A notice above a screen that its reader may close: an icon, the words (a status for assistive technology), the
 * action they call for beside them, and a cross named by `closeLabel`.
 */
export function Banner({
  tone,
  icon: Icon,
  testId,
  action,
  closeLabel,
  onClose,
  children,
}: {
  tone: keyof typeof TONES;
  icon: LucideIcon;
  testId: string;
  action: ReactNode;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const colours = TONES[tone];
  return (
    <div role="status" data-testid={testId} className={cn('flex items-start gap-3 rounded-lg border px-4 py-3 text-sm', colours.box)}>
      <Icon className={cn('mt-0.5 size-4 shrink-0', colours.icon)} aria-hidden="true" />
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
        <p className="min-w-0 flex-1">{children}</p>
        {action}
      </div>
      <button type="button" onClick={onClose} aria-label={closeLabel} className={cn('-m-1 rounded p-1', colours.close)}>
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
