import { useSearchParams } from 'react-router';
import { cn } from '../../../components/ui/cn.ts';
import { useT } from '../../../lib/i18n.ts';
import { transactionsMessages } from '../messages.ts';
import { TABS, tabByIndex, type TabDef } from '../tables.ts';

/**
 * The four tabs by display index in ?tab= (transaction-data §2). Choosing one starts it fresh: the filters, page
 * and dates of the address belong to the tab that was open. On a phone the four share the width, none cut off.
 */
export function TableTabs() {
  const t = useT(transactionsMessages);
  const [params, setParams] = useSearchParams();
  const tab = tabByIndex(params.get('tab') ?? 1);
  return (
    <div role="tablist" aria-label={t('tabs.label')} className="mb-4 flex border-b border-line sm:gap-1">
      {TABS.map((d) => (
        <button
          key={d.index}
          type="button"
          role="tab"
          aria-selected={d.index === tab.index}
          onClick={() => setParams({ tab: String(d.index) })}
          className={cn(
            // on a phone the four share the width by the length of their names (Encaissements is the longest), whole
            '-mb-px flex-auto whitespace-nowrap border-b-2 px-1 py-2.5 text-[13px] font-medium sm:flex-none sm:px-4 sm:text-sm',
            d.index === tab.index ? 'border-brand-700 text-brand-800' : 'border-transparent text-muted hover:text-ink',
          )}
        >
          {t(d.label)}
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
