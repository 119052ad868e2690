import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { TableTabs, useTab } from '../components/table-tabs.tsx';
import { TransactionTable } from '../components/transaction-table.tsx';

/** The four-tab screen (transaction-data §2): the tab is the display index in ?tab=, payments (1) by default. */
export function TransactionsScreen() {
  const tab = useTab();
  const walletMode = useProfile().data?.partner.fiatWalletsEnabled ?? false;
  // the wallet selector lists the partner's fiat wallets (the default USD one first)
  const wallets = useFiatWallets(walletMode).data?.map((w) => w.currency) ?? [];
  return (
    <div>
      <PageHeader {...PAGE_TEXTS.transactions} />
      <TableTabs />
      {/* a new table per tab: switching replaces the filter categories with the tab's own */}
      <TransactionTable key={tab.key} def={tab} walletMode={walletMode} wallets={wallets} />
    </div>
  );
}
