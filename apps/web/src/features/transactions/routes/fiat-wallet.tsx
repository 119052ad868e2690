import { ArrowLeft, Landmark } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { countryName, currencyName, useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { TableTabs, useTab } from '../components/table-tabs.tsx';
import { TransactionTable } from '../components/transaction-table.tsx';

const backLink = (
  <Link
    to="/balance/fiat-wallets"
    className="inline-flex h-10 items-center gap-2 rounded-lg border border-line bg-white px-4 text-sm font-medium text-ink hover:bg-canvas"
  >
    <ArrowLeft className="size-4" aria-hidden="true" />
    Fiat wallets
  </Link>
);

function Empty({ title, body }: { title: string; body: string }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <Landmark className="size-10 text-brand-600" aria-hidden="true" />
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="max-w-sm text-sm text-muted">{body}</p>
    </Card>
  );
}

const onOff = (label: string, on: boolean) => <Badge tone={on ? 'success' : 'neutral'}>{`${label} ${on ? 'on' : 'off'}`}</Badge>;

/**
 * One fiat wallet (portal-core §2: the route's parameter arrives as a property): its ledger balance, its switches
 * and its transactions, in the transaction tables of the Transactions screen narrowed to this wallet.
 */
export function FiatWallet({ currency }: { currency: string }) {
  const profile = useProfile();
  const enabled = profile.data?.partner.fiatWalletsEnabled ?? false;
  const wallets = useFiatWallets(enabled);
  const tab = useTab();
  const code = currency.toUpperCase();
  const wallet = wallets.data?.find((w) => w.currency === code);

  if (profile.isSuccess && !enabled) {
    return (
      <div>
        <PageHeader title="Fiat wallet" actions={backLink} />
        <Empty
          title="Fiat wallets are not enabled for your account"
          body="Your balance is held in USD. Contact your account manager to hold and pay out local currencies."
        />
      </div>
    );
  }
  if (wallets.isSuccess && !wallet) {
    return (
      <div>
        <PageHeader title="Fiat wallet" actions={backLink} />
        <Empty title={`You have no ${code} wallet`} body="Choose one of your fiat wallets to see its balance and transactions." />
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={`${code} wallet`} description={wallet ? `${currencyName(code)} · ${countryName(wallet.country)}` : undefined} actions={backLink} />
      {wallets.isError && (
        <Alert tone="danger" className="mb-4">
          {wallets.error.message}
        </Alert>
      )}
      <Card className="mb-6 flex flex-col gap-4 p-6 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-medium text-muted">Available balance</p>
          <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums sm:text-4xl" data-testid="fiat-wallet-balance">
            {wallet ? formatMoney(wallet.balance, code) : <span className="inline-block h-10 w-56 animate-pulse rounded bg-canvas" aria-label="Loading..." />}
          </p>
        </div>
        {wallet && (
          <div className="flex flex-wrap gap-2">
            {onOff('Payments', wallet.paymentEnabled)}
            {onOff('Collections', wallet.collectionEnabled)}
          </div>
        )}
      </Card>
      <TableTabs />
      {/* searched once the wallet is known to be the partner's */}
      {wallet ? (
        <TransactionTable key={`${code}-${tab.key}`} def={tab} walletMode={false} wallets={[]} fiatWallet={code} />
      ) : (
        <Card className="h-[560px] animate-pulse" />
      )}
    </div>
  );
}

/** /balance/fiat-wallet/{currency} */
export function FiatWalletScreen() {
  const { currency = '' } = useParams();
  return <FiatWallet currency={currency} />;
}
