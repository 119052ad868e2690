import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';

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
