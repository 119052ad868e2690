import { can } from '@portal/contract/permissions';
import { ArrowDownToLine, ArrowUpFromLine, ChevronRight, FlaskConical, Landmark, Wallet } from 'lucide-react';
import { roleLabel } from '../../../lib/labels.ts';
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useShownOnce } from '../../../lib/shown-once.ts';
import { CardsSkeleton } from '../../../components/ui/skeleton.tsx';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useAccounts, usdAvailable } from '../../../lib/partner/accounts.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useTestMode } from '../../../lib/test-mode.ts';
import { TopUpDialog } from '../components/top-up-dialog.tsx';
import { WithdrawDialog } from '../components/withdraw-dialog.tsx';
import { PendingCard, RecentMovements } from '../components/balance-details.tsx';
import { useBalanceOverview } from '../api/balance-overview.ts';
import { balanceMessages } from '../messages.ts';

/** The test view's top-up, loaded when first opened: the screen does not carry it. */
const TestFundsDialog = lazy(async () => ({ default: (await import('../components/test-funds-dialog.tsx')).TestFundsDialog }));

export function BalanceScreen() {
  const t = useT(balanceMessages);
  const accounts = useAccounts();
  const profile = useProfile();
  const [topUp, setTopUp] = useState(false);
  const [withdraw, setWithdraw] = useState(false);
  const [testFunds, setTestFunds] = useState(false);
  const role = useSession((s) => s.user?.role);
  // the test view: test money for the test side's balance, for those who may move money. A withdrawal has no test
  // side (the server makes it from the live balance whatever the view): it is not offered there
  const testMode = useTestMode((s) => s.on);
  const addsTestFunds = testMode && can(role, 'addTestFunds');
  // moving money is for admin and treasury users (the server refuses the others)
  const movesMoney = can(role, 'withdraw');
  // a role taken away while the withdrawal is open (the live stream's access event) closes it, and says why
  const [roleNotice, setRoleNotice] = useState<string>();
  if (withdraw && !movesMoney) {
    setWithdraw(false);
    setRoleNotice(role ? t('roleNotice', { role: roleLabel(role) }) : t('roleNoticeChanged'));
  }
  const others = accounts.data?.accounts.filter((a) => a.currency !== 'USD') ?? [];
  // the cards and the movements show together once their data is in (or failed): none grows under the reader. Once
  // shown they stay
  const overview = useBalanceOverview();
  const shown = useShownOnce(!accounts.isPending && !overview.isPending);
  if (!shown)
    return (
      <div aria-busy="true">
        <PageHeader {...PAGE_TEXTS.balance} />
        <CardsSkeleton />
      </div>
    );

  return (
    <div>
      <PageHeader
        {...PAGE_TEXTS.balance}
        actions={
          <>
            {movesMoney && !testMode && (
              <Button variant="secondary" onClick={() => setWithdraw(true)} disabled={accounts.isPending}>
                <ArrowUpFromLine className="size-4" aria-hidden="true" />
                {t('withdraw')}
              </Button>
            )}
            <Button onClick={() => setTopUp(true)}>
              <ArrowDownToLine className="size-4" aria-hidden="true" />
              {t('topUp')}
            </Button>
          </>
        }
      />
      {roleNotice && (
        <Alert tone="warning" className="mb-4">
          {roleNotice}
        </Alert>
      )}
      {accounts.isError && <Alert tone="danger">{accounts.error.message || t('accountsError')}</Alert>}
      <div className="grid gap-4 md:grid-cols-2">
        <Card className="p-6">
          <p className="text-sm font-medium text-muted">{t('available')}</p>
          <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums sm:text-4xl" data-testid="usd-available">
            {accounts.isPending ? (
              <span className="inline-block h-10 w-56 animate-pulse rounded bg-canvas" aria-label={t('loading')} />
            ) : (
              formatMoney(usdAvailable(accounts.data?.accounts), 'USD')
            )}
          </p>
          <p className="mt-1 text-xs text-muted">{t('usdAccount')}</p>
          {addsTestFunds && (
            <Button variant="secondary" size="sm" className="mt-4" onClick={() => setTestFunds(true)}>
              <FlaskConical className="size-4" aria-hidden="true" />
              {t('testFunds.open')}
            </Button>
          )}
        </Card>
        <PendingCard />
      </div>
      <RecentMovements />

      <h2 className="mb-3 mt-8 text-base font-semibold">{t('others.title')}</h2>
      {accounts.isPending ? (
        <Card className="h-24 animate-pulse" />
      ) : others.length === 0 ? (
        <Card className="flex items-center gap-3 px-6 py-8 text-sm text-muted">
          <Wallet className="size-5" aria-hidden="true" />
          {t('others.empty')}
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {others.map((a) => (
            <Card key={a.currency} className="p-5">
              <p className="text-xs font-medium uppercase tracking-wide text-muted">{a.currency}</p>
              <p className="mt-1 text-xl font-semibold tabular-nums">{formatMoney(a.available)}</p>
            </Card>
          ))}
        </div>
      )}
      {withdraw && (
        <WithdrawDialog
          open={withdraw}
          onOpenChange={setWithdraw}
          available={usdAvailable(accounts.data?.accounts)}
          canManageWallets={movesMoney && (profile.data?.featureFlags.walletManagementEnabled ?? false)}
        />
      )}
      {profile.data?.partner.fiatWalletsEnabled && (
        <Link to="/balance/fiat-wallets" className="mt-6 flex items-center gap-4 rounded-xl border border-line bg-white p-5 hover:bg-canvas/60">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-600/20">
            <Landmark className="size-5" aria-hidden="true" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-ink">{t('fiat.title')}</span>
            <span className="block text-sm text-muted">{t('fiat.body')}</span>
          </span>
          <ChevronRight className="size-5 text-muted" aria-hidden="true" />
        </Link>
      )}
      {testFunds && addsTestFunds && (
        <Suspense fallback={null}>
          <TestFundsDialog open={testFunds} onOpenChange={setTestFunds} />
        </Suspense>
      )}
      {topUp && <TopUpDialog open={topUp} onOpenChange={setTopUp} b2b={profile.data?.partner.isB2B ?? false} />}
    </div>
  );
}
