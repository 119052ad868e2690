import type { ReactNode } from 'react';

/** A line of the withdrawal's summary: what it is, and its value on the right. */
export function SummaryRow({ label, value, strong, testId }: { label: string; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-4 py-2.5 text-sm">
      <dt className="max-w-[60%] shrink-0 text-muted">{label}</dt>
      <dd className={strong ? 'text-right font-semibold' : 'text-right'} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
