import { PageHeader } from '../../../components/ui/page-header.tsx';
import { TransactionTable } from '../components/transaction-table.tsx';
import { INITIATED_PAYMENTS, TRADES } from '../tables.ts';

export function TradesScreen() {
  return (
    <div>
      <PageHeader title="Trades" description="Your trades between local currency and stablecoins." />
      <TransactionTable def={TRADES} walletMode={false} wallets={[]} />
    </div>
  );
}

/** Initiated payments for whitelisted commercial partners; the initiation form comes with its own change. */
export function PaymentsScreen() {
  return (
    <div>
      <PageHeader title="Initiate payments" description="Payments you initiated, newest first." />
      <TransactionTable def={INITIATED_PAYMENTS} walletMode={false} wallets={[]} />
    </div>
  );
}
