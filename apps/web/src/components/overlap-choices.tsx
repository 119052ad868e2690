import { cn } from './ui/cn.ts';

/**
 * How long an old secret keeps working after a roll (an API key's, a webhook's): a radio per choice, and a line that
 * says what the chosen one means.
 */
export function OverlapChoices({
  legend,
  choices,
  minutes,
  onChange,
  label = (c) => c.label,
  columns = 'grid-cols-2',
  meaning,
}: {
  legend: string;
  choices: readonly { minutes: number; label: string }[];
  minutes: number;
  onChange: (minutes: number) => void;
  label?: (choice: { minutes: number; label: string }) => string;
  columns?: string;
  /** what the choice means: one sentence for "at once", one for an overlap */
  meaning: { now: string; overlap: string };
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className={cn('mt-2 grid gap-2', columns)}>
        {choices.map((c) => (
          <label
            key={c.minutes}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
              minutes === c.minutes ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
            )}
          >
            <input type="radio" name="overlap" className="size-4 accent-brand-700" checked={minutes === c.minutes} onChange={() => onChange(c.minutes)} />
            {label(c)}
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-muted">{minutes === 0 ? meaning.now : meaning.overlap}</p>
    </fieldset>
  );
}
