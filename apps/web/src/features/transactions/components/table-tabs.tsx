import { useSearchParams } from 'react-router';
import { cn } from '../../../components/ui/cn.ts';
import { TABS, tabByIndex, type TabDef } from '../tables.ts';

/**
 * The four tabs by display index in ?tab= (transaction-data §2). Choosing one starts it fresh: the filters, page
 * and dates of the address belong to the tab that was open. On a phone the four share the width, none cut off.
 */
export function TableTabs() {
  const [params, setParams] = useSearchParams();
  const tab = tabByIndex(params.get('tab') ?? 1);
  return (
    <div role="tablist" aria-label="Transaction tables" className="mb-4 grid grid-cols-4 border-b border-line sm:flex sm:gap-1">
      {TABS.map((t) => (
        <button
          key={t.index}
          type="button"
          role="tab"
          aria-selected={t.index === tab.index}
          onClick={() => setParams({ tab: String(t.index) })}
          className={cn(
            '-mb-px min-w-0 whitespace-nowrap border-b-2 px-1 py-2.5 text-[13px] font-medium sm:px-4 sm:text-sm',
            t.index === tab.index ? 'border-brand-700 text-brand-800' : 'border-transparent text-muted hover:text-ink',
          )}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The tab of the address. */
export function useTab(): TabDef {
  const [params] = useSearchParams();
  return tabByIndex(params.get('tab') ?? 1);
}
