import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';

/** The sections of Settings, in their order: the screen's and its skeleton's words. */
export const SETTINGS_SECTIONS = {
  lowBalance: {
    title: 'Low balance limit',
    description: 'We show a banner when your available USD balance falls below this amount (1,000 USD when none is set).',
  },
  payout: { title: 'Payout settings', description: 'Choose whether payouts of your balance are made when you ask for them, or on a schedule.' },
  notifications: {
    title: 'Notifications',
    description: 'What happens on your account shows under the bell in the menu. Choose which of it also comes to you by e-mail. Only you see your choice.',
  },
  timeZone: {
    title: 'Time zone',
    description: 'The zone of every time in the dashboard, of the date filters and of the files you export. Only you see your choice.',
  },
} as const;

export function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted">{description}</p>
      <div className="mt-5">{children}</div>
    </Card>
  );
}

/** A radio or checkbox styled as a chip. */
export const choiceInput = 'size-4 accent-brand-700';
export const chip = (on: boolean) =>
  cn('inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm', on ? 'border-brand-700 bg-brand-50' : 'border-line bg-white');
