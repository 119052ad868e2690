import type { ReactNode } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { useT } from '../../../lib/i18n.ts';
import { walletsMessages } from '../messages.ts';
import { reasonText } from '../reasons.ts';

/**
 * The offered reasons for deleting or denying a wallet, as radios under their legend, each in the reader's language;
 * `children` follow the radios inside the same fieldset (a free reason, an error).
 */
export function ReasonChoices<R extends string>({
  legend,
  name,
  reasons,
  selected,
  onSelect,
  children,
}: {
  legend: string;
  name: string;
  reasons: readonly R[];
  selected: string | null;
  onSelect: (reason: R) => void;
  children?: ReactNode;
}) {
  const t = useT(walletsMessages);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {reasons.map((r) => (
        <label
          key={r}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 text-sm',
            selected === r ? 'border-brand-600 bg-brand-50' : 'border-line hover:bg-canvas',
          )}
        >
          <input type="radio" name={name} className="mt-0.5 size-4 accent-brand-700" checked={selected === r} onChange={() => onSelect(r)} />
          {reasonText(t, r)}
        </label>
      ))}
      {children}
    </fieldset>
  );
}
