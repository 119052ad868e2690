import { AlertTriangle, X } from 'lucide-react';
import { Link } from 'react-router';
import { formatMoney } from '../../lib/format.ts';
import { useAccounts, usdAvailable } from '../../lib/partner/accounts.ts';
import { useProfile } from '../../lib/partner/profile.ts';
import { isLowBalance, useBanners } from './low-balance.ts';
import { PendingCountriesBanner } from './pending-countries.tsx';

/** The banners above every page (the container hides itself when none shows). The wallet-review banners come with their feature. */
export function BannerArea() {
  const accounts = useAccounts();
  const profile = useProfile();
  const { lowBalanceDismissed, dismissLowBalance } = useBanners();
  const available = accounts.data ? usdAvailable(accounts.data.accounts) : undefined;
  const low = !lowBalanceDismissed && isLowBalance(available, profile.data?.partner.lowBalanceLimit);
  return (
    <div className="mb-6 space-y-3 empty:hidden">
      {low && (
      <div role="status" data-testid="low-balance-banner" className="flex items-start gap-3 rounded-lg border border-warning/25 bg-warning-soft px-4 py-3 text-sm text-warning">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-4">
          <p className="min-w-0 flex-1">
            <span className="font-semibold">Low balance.</span> Your available balance is {formatMoney(available ?? '0', 'USD')}. Top up to keep payouts flowing.
          </p>
          <Link to="/balance" className="shrink-0 font-semibold underline underline-offset-2">
            Top up balance
          </Link>
        </div>
        <button type="button" onClick={dismissLowBalance} aria-label="Close low balance banner" className="-m-1 rounded p-1 hover:bg-warning/10">
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      )}
      <PendingCountriesBanner />
    </div>
  );
}
