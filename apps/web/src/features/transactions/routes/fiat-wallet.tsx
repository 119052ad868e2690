import { ArrowLeft, Landmark } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { NoticeCard } from '../../../components/ui/notice-card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { countryName, currencyName, useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { TableTabs, useTab } from '../components/table-tabs.tsx';
import { TransactionTable } from '../components/transaction-table.tsx';
import { transactionsMessages } from '../messages.ts';

function BackLink() {
  const t = useT(transactionsMessages);
  return (
    <Link
      to="/balance/fiat-wallets"
      className="inline-flex min-h-10 items-center gap-2 rounded-lg border border-line bg-white px-4 py-2 text-sm font-medium text-ink hover:bg-canvas"
    >
      <ArrowLeft className="size-4 shrink-0" aria-hidden="true" />
      {t('wallet.back')}
    </Link>
  );
}
const backLink = <BackLink />;

const onOff = (text: string, on: boolean) => <Badge tone={on ? 'success' : 'neutral'}>{text}</Badge>;

/**
 * One fiat wallet (portal-core §2: the route's parameter arrives as a property): its ledger balance, its switches
 * and its transactions, in the transaction tables of the Transactions screen narrowed to this wallet.
 */
export function FiatWallet({ currency }: { currency: string }) {
  const t = useT(transactionsMessages);
  const profile = useProfile();
  const enabled = profile.data?.partner.fiatWalletsEnabled ?? false;
  const wallets = useFiatWallets(enabled);
  const tab = useTab();
  const code = currency.toUpperCase();
  const wallet = wallets.data?.find((w) => w.currency === code);

  if (profile.isSuccess && !enabled) {
    return (
      <div>
        <PageHeader title={t('wallet.title')} actions={backLink} />
        <NoticeCard icon={Landmark} title={t('wallet.notEnabled.title')} body={t('wallet.notEnabled.body')} />
      </div>
    );
  }
  if (wallets.isSuccess && !wallet) {
    return (
      <div>
        <PageHeader title={t('wallet.title')} actions={backLink} />
        <NoticeCard icon={Landmark} title={t('wallet.none.title', { code })} body={t('wallet.none.body')} />
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title={t('wallet.codeTitle', { code })}
        description={wallet ? `${currencyName(code)} · ${countryName(wallet.country)}` : undefined}
        actions={backLink}
      />
      <ErrorAlert error={wallets.error} className="mb-4" />
      <Card className="mb-6 flex flex-col gap-4 p-6 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-medium text-muted">{t('wallet.available')}</p>
          <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums sm:text-4xl" data-testid="fiat-wallet-balance">
            {wallet ? (
              formatMoney(wallet.balance, code)
            ) : (
              <span className="inline-block h-10 w-56 animate-pulse rounded bg-canvas" aria-label={t('wallet.loading')} />
            )}
          </p>
        </div>
        {wallet && (
          <div className="flex flex-wrap gap-2">
            {onOff(wallet.paymentEnabled ? t('wallet.paymentsOn') : t('wallet.paymentsOff'), wallet.paymentEnabled)}
            {onOff(wallet.collectionEnabled ? t('wallet.collectionsOn') : t('wallet.collectionsOff'), wallet.collectionEnabled)}
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
