import { Check, ChevronDown } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from './cn.ts';
import { OWN_ESCAPE } from './own-escape.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

export type SelectOption = { value: string; label: string };

/** Options whose label contains the query, case-insensitively (portal-core §2). */
export function filterOptions(options: SelectOption[], query: string): SelectOption[] {
  const q = query.trim().toLowerCase();
  return q ? options.filter((o) => o.label.toLowerCase().includes(q)) : options;
}

export type SearchableSelectProps = {
  options: SelectOption[];
  value: string | undefined;
  onChange: (value: string) => void;
  /** the accessible name */
  label: string;
  placeholder?: string;
  searchPlaceholder?: string;
  disabled?: boolean;
  /** B2B partners get another look (portal-core §2) */
  variant?: 'default' | 'b2b';
  className?: string;
};

/**
 * The reusable searchable select: a button that opens a search field over a list box (WAI-ARIA combobox with a
 * list box popup). Typing filters by label; arrows move; Enter picks the highlighted, which is the first match
 * after typing; Esc closes and gives focus back.
 */
export function SearchableSelect({
  options,
  value,
  onChange,
  label,
  placeholder: givenPlaceholder,
  searchPlaceholder,
  disabled = false,
  variant = 'default',
  className,
}: SearchableSelectProps) {
  const t = useT(commonMessages);
  const placeholder = givenPlaceholder ?? t('select.placeholder');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => filterOptions(options, query), [options, query]);
  const selected = options.find((o) => o.value === value);

  useEffect(() => {
    if (!open) return;
    search.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openList = () => {
    if (disabled) return;
    setQuery('');
    setActive(
      Math.max(
        0,
        options.findIndex((o) => o.value === value),
      ),
    );
    setOpen(true);
  };
  const close = (focusTrigger = true) => {
    setOpen(false);
    if (focusTrigger) trigger.current?.focus();
  };
  const pick = (option: SelectOption | undefined) => {
    if (!option) return;
    onChange(option.value);
    close();
  };

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        setActive((i) => Math.min(i + 1, matches.length - 1));
        break;
      case 'ArrowUp':
        e.preventDefault();
        setActive((i) => Math.max(i - 1, 0));
        break;
      case 'Home':
        e.preventDefault();
        setActive(0);
        break;
      case 'End':
        e.preventDefault();
        setActive(Math.max(0, matches.length - 1));
        break;
      case 'Enter':
        e.preventDefault();
        pick(matches[active] ?? matches[0]);
        break;
      case 'Escape':
        e.preventDefault();
        close();
        break;
      case 'Tab':
        close(false);
        break;
    }
  };

  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  return (
    <div ref={root} className={cn('relative', className)}>
      <button
        ref={trigger}
        type="button"
        disabled={disabled}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={t('select.trigger', { label, value: selected?.label ?? placeholder })}
        onClick={() => (open ? close() : openList())}
        onKeyDown={(e) => {
          if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(e.key)) {
            e.preventDefault();
            openList();
          }
        }}
        className={cn(
          'flex h-10 w-full items-center justify-between gap-2 rounded-lg border px-3 text-left text-sm disabled:cursor-not-allowed disabled:opacity-60',
          variant === 'b2b' ? 'border-brand-800/30 bg-brand-50 font-medium text-brand-900' : 'border-line bg-white text-ink',
        )}
      >
        <span className={cn('truncate', !selected && 'text-muted')}>{selected?.label ?? placeholder}</span>
        <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden="true" />
      </button>
      {open && (
        <div {...{ [OWN_ESCAPE]: '' }} className="absolute z-50 mt-1 w-full min-w-48 rounded-lg border border-line bg-white p-1 shadow-lg">
          <input
            ref={search}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={matches[active] ? optionId(active) : undefined}
            aria-label={t('select.searchLabel', { label })}
            placeholder={searchPlaceholder ?? t('select.search')}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onSearchKey}
            className="mb-1 h-9 w-full rounded-md border border-line px-2 text-sm focus:border-brand-600 focus:outline-none"
          />
          <ul id={listId} role="listbox" aria-label={label} className="max-h-60 overflow-y-auto">
            {matches.length === 0 && <li className="px-2 py-2 text-sm text-muted">{t('select.none')}</li>}
            {matches.map((o, i) => (
              <li
                key={o.value}
                id={optionId(i)}
                role="option"
                aria-selected={o.value === value}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(o)}
                className={cn('flex cursor-pointer items-center justify-between rounded-md px-2 py-2 text-sm', i === active && 'bg-brand-50')}
              >
                {o.label}
                {o.value === value && <Check className="size-4 text-brand-700" aria-hidden="true" />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
