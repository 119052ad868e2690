import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { STATUS_GROUPS, statusGroupsOf, statusList } from '@portal/contract/status-groups';
import { cn } from '../../../components/ui/cn.ts';
import { inputClass } from '../../../components/ui/field.tsx';
import { OWN_ESCAPE } from '../../../components/ui/own-escape.ts';
import { statusLabel } from '../../../lib/format.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { transactionsMessages, type TransactionsKey } from '../messages.ts';

/** The groups' names by their keys (the contract's labels are the English ones). */
const GROUP_NAMES: Record<string, TransactionsKey> = {
  open: 'statusGroup.open',
  in_progress: 'statusGroup.in_progress',
  succeeded: 'statusGroup.succeeded',
  failed: 'statusGroup.failed',
  refunded: 'statusGroup.refunded',
  cancelled: 'statusGroup.cancelled',
  other: 'statusGroup.other',
};
/** A group's name in the language in force; a group the portal does not know keeps the contract's label. */
const groupName = (group: { key: string; label: string }, t = translator(transactionsMessages)) => {
  const key = GROUP_NAMES[group.key];
  return key ? t(key) : group.label;
};

/** What the closed filter says: All, a status, a whole group, or how many statuses. */
export function statusSummary(selected: readonly string[]): string {
  const t = translator(transactionsMessages);
  if (selected.length === 0) return t('statusFilter.all');
  if (selected.length === 1) return statusLabel(selected[0]);
  const group = STATUS_GROUPS.find((g) => g.statuses.length === selected.length && g.statuses.every((s) => selected.includes(s)));
  return group ? groupName(group, t) : t('statusFilter.selected', { count: selected.length });
}

type Props = {
  /** the statuses the table offers */
  options: readonly string[];
  /** the filter's value: statuses separated by commas */
  value: string;
  onChange: (value: string) => void;
};

/**
 * The status filter: a button that opens the status groups, each with its statuses under it, as check boxes. A
 * group's box selects or clears all its statuses (it shows mixed when some are); a status may be picked on its own.
 * Esc and a click outside close it.
 */
export function StatusFilter({ options, value, onChange }: Props) {
  const t = useT(transactionsMessages);
  const [open, setOpen] = useState(false);
  const selected = statusList(value);
  const groups = statusGroupsOf(options);
  // statuses the table offers outside every group (a value grown from the rows): their own group
  const other = options.filter((o) => !groups.some((g) => g.statuses.includes(o as never)));
  const all = [...groups, ...(other.length ? [{ key: 'other', label: 'Other', statuses: other }] : [])];
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useId();

  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  // the value keeps the order of the groups, so one selection is one address
  const set = (next: Set<string>) => onChange(all.flatMap((g) => g.statuses.filter((s) => next.has(s))).join(','));
  const toggle = (statuses: readonly string[], on: boolean) => {
    const next = new Set(selected);
    for (const s of statuses) {
      if (on) next.add(s);
      else next.delete(s);
    }
    set(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      e.nativeEvent.stopImmediatePropagation();
      setOpen(false);
      button.current?.focus();
    }
  };

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown} {...{ [OWN_ESCAPE]: open ? '' : undefined }}>
      <button
        ref={button}
        type="button"
        className={cn(inputClass, 'flex items-center justify-between gap-2 text-left')}
        aria-expanded={open}
        aria-controls={panel}
        aria-label={t('statusFilter.label', { summary: statusSummary(selected) })}
        onClick={() => setOpen(!open)}
      >
        <span className={cn('truncate', selected.length === 0 && 'text-muted')}>{statusSummary(selected)}</span>
        <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={panel}
          className="z-20 mt-1 max-h-96 w-full overflow-y-auto rounded-lg border border-line bg-white p-2 shadow-lg sm:absolute sm:w-72"
          data-testid="status-filter"
        >
          {all.map((g) => {
            const on = g.statuses.filter((s) => selected.includes(s)).length;
            return (
              <fieldset key={g.key} className="mb-1 last:mb-0">
                <legend className="sr-only">{groupName(g, t)}</legend>
                <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm font-semibold hover:bg-canvas">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-800"
                    checked={on === g.statuses.length}
                    ref={(el) => {
                      if (el) el.indeterminate = on > 0 && on < g.statuses.length;
                    }}
                    onChange={(e) => toggle(g.statuses, e.target.checked)}
                  />
                  {groupName(g, t)}
                  <span className="font-normal text-muted">({g.statuses.length})</span>
                </label>
                {g.statuses.map((s) => (
                  <label key={s} className="flex cursor-pointer items-center gap-2 rounded py-1 pl-8 pr-2 text-sm hover:bg-canvas">
                    <input type="checkbox" className="size-4 accent-brand-800" checked={selected.includes(s)} onChange={(e) => toggle([s], e.target.checked)} />
                    {statusLabel(s)}
                  </label>
                ))}
              </fieldset>
            );
          })}
          {selected.length > 0 && (
            <button type="button" className="mt-1 w-full rounded px-2 py-1.5 text-left text-sm text-brand-800 hover:bg-canvas" onClick={() => onChange('')}>
              {t('statusFilter.clear')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
