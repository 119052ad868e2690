import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      {subtitle && <p className="mt-1.5 text-sm text-muted">{subtitle}</p>}
      <div className="mt-6">{children}</div>
      {footer && <div className="mt-6 border-t border-line pt-4 text-center text-sm text-muted">{footer}</div>}
    </Card>
  );
}

export function StepIndicator({ current, total }: { current: number; total: number }) {
  const t = useT(authMessages);
  if (total < 2) return null;
  return <p className="mb-3 text-xs font-medium uppercase tracking-wide text-brand-700">{t('step', { current, total })}</p>;
}
