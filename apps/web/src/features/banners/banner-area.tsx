import { AlertTriangle } from 'lucide-react';
import { Banner } from '../../components/ui/banner.tsx';
import { formatMoney } from '../../lib/format.ts';
import { translator, useT } from '../../lib/i18n.ts';
import { useAccounts, usdAvailable } from '../../lib/partner/accounts.ts';
import { hasBalance } from '../../lib/partner/access.ts';
import { useProfile } from '../../lib/partner/profile.ts';
import { useTestMode } from '../../lib/test-mode.ts';
import { isLowBalance, lowBalanceLimitOf, useBanners } from './low-balance.ts';
import { bannersMessages } from './messages.ts';
import { PendingCountriesBanner } from './pending-countries.tsx';

/**
 * The banners above every page (the container hides itself when none shows). The wallet-review banners come with
 * their feature. The low-balance banner shows only to partners with a balance screen, on the live side; its 'Top up
 * balance' opens the top-up dialog, which the frame owns (`onTopUp`).
 */
export function BannerArea({ onTopUp }: { onTopUp: (reason: string) => void }) {
  const t = useT(bannersMessages);
  const accounts = useAccounts();
  const profile = useProfile();
  const { lowBalanceDismissed, dismissLowBalance } = useBanners();
  const available = accounts.data ? usdAvailable(accounts.data.accounts) : undefined;
  const limit = lowBalanceLimitOf(profile.data?.partner.lowBalanceLimit);
  // the limit is the live balance's: the test view's balance is test money, never topped up for payouts
  const testView = useTestMode((s) => s.on);
  const low = !testView && !lowBalanceDismissed && hasBalance(profile.data?.partner) && isLowBalance(available, limit);
  const amounts = () => ({ available: formatMoney(available ?? '0', 'USD'), limit: formatMoney(limit, 'USD') });
  return (
    <div className="mb-6 space-y-3 empty:hidden">
      {low && (
        <Banner
          tone="warning"
          icon={AlertTriangle}
          testId="low-balance-banner"
          action={
            <button
              type="button"
              onClick={() => onTopUp(translator(bannersMessages)('lowBalance.reason', amounts()))}
              className="shrink-0 self-start rounded font-semibold underline underline-offset-2 hover:no-underline sm:self-auto"
            >
              {t('lowBalance.topUp')}
            </button>
          }
          closeLabel={t('lowBalance.close')}
          onClose={dismissLowBalance}
        >
          <span className="font-semibold">{t('lowBalance.title')}</span> {t('lowBalance.body', amounts())}
        </Banner>
      )}
      <PendingCountriesBanner />
    </div>
  );
}
