import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useCsvExport, type ExportProgress } from '../hooks/use-csv-export.ts';
import { useTransactionSearch, type TableDef } from '../hooks/use-transaction-search.ts';
import type { Row } from '../tables.ts';
import { DetailsDrawer } from './details-drawer.tsx';
import { EmptyState } from './empty-state.tsx';
import { FilterBar } from './filter-bar.tsx';
import { Pager } from './pager.tsx';
import { TransactionRows } from './transaction-rows.tsx';

function ExportStatus({ progress }: { progress: ExportProgress }) {
  return (
    <div className="border-b border-line px-4 py-3" role="status">
      <p className="mb-1 text-xs text-muted">
        Preparing export: {progress.loaded.toLocaleString('en-US')} of {progress.of.toLocaleString('en-US')} rows
      </p>
      <div className="h-1.5 overflow-hidden rounded bg-canvas">
        <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress.of ? (progress.loaded / progress.of) * 100 : 0}%` }} />
      </div>
    </div>
  );
}

type Props = {
  def: TableDef;
  walletMode: boolean;
  /** the wallet selector's choices (the partner's fiat wallets) */
  wallets: string[];
  /** one fiat wallet's rows only (its own screen): no wallet selector */
  fiatWallet?: string;
};

/** One transaction table: filters, id search, date range, wallet, pages of 10, details, export. */
export function TransactionTable({ def, walletMode, wallets, fiatWallet }: Props) {
  const search = useTransactionSearch(def, fiatWallet);
  const csv = useCsvExport(def, walletMode);
  const [viewing, setViewing] = useState<Row>();
  const { page, total } = search;

  return (
    <Card>
      <FilterBar
        tableKey={def.key}
        search={search}
        walletMode={walletMode && !fiatWallet}
        wallets={wallets}
        actions={
          <Button variant="secondary" onClick={() => void csv.start(search.query, total)} disabled={!page.data || total === 0 || !!csv.progress}>
            <Download className="size-4" aria-hidden="true" />
            Export CSV
          </Button>
        }
      />
      {csv.progress && <ExportStatus progress={csv.progress} />}
      {search.empty ? (
        <EmptyState kind={search.empty} />
      ) : (
        <TransactionRows columns={def.columns(walletMode)} rows={search.rows} pending={page.isPending} fetching={page.isFetching} onView={setViewing} />
      )}
      <Pager startIndex={search.startIndex} shown={search.rows.length} total={total} totalText={search.totalText} loaded={!!page.data} busy={page.isFetching} onPage={search.goTo} />
      <DetailsDrawer row={viewing} onClose={() => setViewing(undefined)} />
    </Card>
  );
}
