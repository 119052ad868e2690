import { can } from '@portal/contract/permissions';
import { ShieldCheck } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import type { SettlementWallet } from '@portal/contract/wallets';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { walletsMessages } from '../messages.ts';
import { useReviewBanners } from '../review-banners.ts';
import { reviewable, shortAddress } from '../wallet-rows.ts';

/** The review dialog, loaded when first opened: the frame does not carry it. */
const ReviewWalletDialog = lazy(async () => ({ default: (await import('./review-wallet-dialog.tsx')).ReviewWalletDialog }));

/**
 * One banner per wallet address waiting for the signed-in user's review (portal-core §2): admin and treasury users
 * of B2B partners, never the person who added it. Each has a review button and is dismissible.
 */
export function WalletReviewBanners() {
  const t = useT(walletsMessages);
  const role = useSession((s) => s.user?.role);
  const profile = useProfile();
  const mayReview = can(role, 'manageWallets') && profile.data?.partner.isB2B === true && profile.data.featureFlags.walletManagementEnabled;
  const wallets = useSettlementWallets();
  const { dismissed, dismiss } = useReviewBanners();
  const [reviewing, setReviewing] = useState<SettlementWallet | null>(null);
  if (!mayReview) return null;
  const pending = reviewable(wallets.data?.wallets).filter((w) => !dismissed.includes(w.address));
  if (pending.length === 0 && !reviewing) return null;
  return (
    <div className="mb-6 space-y-3">
      {pending.map((w) => (
        <Banner
          key={w.id}
          tone="brand"
          icon={ShieldCheck}
          testId="wallet-review-banner"
          action={
            <Button size="sm" className="self-start sm:self-auto" onClick={() => setReviewing(w)}>
              {t('banner.review')}
            </Button>
          }
          closeLabel={t('banner.dismiss', { address: w.address })}
          onClose={() => dismiss(w.address)}
        >
          <span className="font-semibold">{t('banner.title')}</span>{' '}
          {t.rich('banner.body', {
            // the name as typed, drawn as text (never read as markup)
            name: <>{w.createdByName}</>,
            currencies: w.currencies.join(' / '),
            network: w.network,
            code: () => <code className="font-mono text-[13px]">{shortAddress(w.address)}</code>,
          })}
        </Banner>
      ))}
      {reviewing && (
        <Suspense fallback={null}>
          <ReviewWalletDialog wallet={reviewing} open onOpenChange={(open) => !open && setReviewing(null)} />
        </Suspense>
      )}
    </div>
  );
}
