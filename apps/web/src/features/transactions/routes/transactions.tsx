import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { TransactionTable } from '../components/transaction-table.tsx';
import { TABS, tabByIndex } from '../tables.ts';

/** The four-tab screen (transaction-data §2): the tab is the display index in ?tab=, payments (1) by default. */
export function TransactionsScreen() {
  const [params, setParams] = useSearchParams();
  const tab = tabByIndex(params.get('tab') ?? 1);
  const walletMode = useProfile().data?.partner.fiatWalletsEnabled ?? false;
  // the wallet selector lists the partner's fiat wallets (the default USD one first)
  const wallets = useFiatWallets(walletMode).data?.map((w) => w.currency) ?? [];
  return (
    <div>
      <PageHeader title="Transactions" description="Your payments, collections, settlements and fees." />
      <div role="tablist" aria-label="Transaction tables" className="mb-4 flex gap-1 overflow-x-auto border-b border-line">
        {TABS.map((t) => (
          <button
            key={t.index}
            role="tab"
            aria-selected={t.index === tab.index}
            onClick={() => setParams({ tab: String(t.index) })}
            className={cn('-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium', t.index === tab.index ? 'border-brand-700 text-brand-800' : 'border-transparent text-muted hover:text-ink')}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* a new table per tab: switching replaces the filter categories with the tab's own */}
      <TransactionTable key={tab.key} def={tab} walletMode={walletMode} wallets={wallets} />
    </div>
  );
}
