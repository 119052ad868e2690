import { can } from '@portal/contract/permissions';
import { ShieldCheck, X } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import type { SettlementWallet } from '@portal/contract/wallets';
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
        <div
          key={w.id}
          role="status"
          data-testid="wallet-review-banner"
          className="flex items-start gap-3 rounded-lg border border-brand-600/25 bg-brand-50 px-4 py-3 text-sm text-brand-900"
        >
          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
            <p className="min-w-0 flex-1">
              <span className="font-semibold">{t('banner.title')}</span>{' '}
              {t.rich('banner.body', {
                // the name as typed, drawn as text (never read as markup)
                name: <>{w.createdByName}</>,
                currencies: w.currencies.join(' / '),
                network: w.network,
                code: () => <code className="font-mono text-[13px]">{shortAddress(w.address)}</code>,
              })}
            </p>
            <Button size="sm" className="self-start sm:self-auto" onClick={() => setReviewing(w)}>
              {t('banner.review')}
            </Button>
          </div>
          <button
            type="button"
            onClick={() => dismiss(w.address)}
            aria-label={t('banner.dismiss', { address: w.address })}
            className="-m-1 rounded p-1 hover:bg-brand-600/10"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      ))}
      {reviewing && (
        <Suspense fallback={null}>
          <ReviewWalletDialog wallet={reviewing} open onOpenChange={(open) => !open && setReviewing(null)} />
        </Suspense>
      )}
    </div>
  );
}
