import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { compareDecimal } from '@portal/contract/decimal';
import { DEFAULT_LOW_BALANCE_LIMIT } from '@portal/contract/payout';

/** The limit in force: the partner's, or 1000 USD when none is set (portal-core §4, §9). */
export const lowBalanceLimitOf = (limit: string | null | undefined) => limit ?? DEFAULT_LOW_BALANCE_LIMIT;

/** Low balance: the USD available amount is below the partner's limit (compared as decimals, never floats). */
export function isLowBalance(usdAvailable: string | undefined, limit: string | null | undefined): boolean {
  if (usdAvailable === undefined) return false;
  return compareDecimal(usdAvailable, lowBalanceLimitOf(limit)) < 0;
}

type Banners = { lowBalanceDismissed: boolean; dismissLowBalance: () => void; reset(): void };

/** Dismissed banners, until the next sign-in. */
export const useBanners = create<Banners>()(
  persist(
    (set) => ({
      lowBalanceDismissed: false,
      dismissLowBalance: () => set({ lowBalanceDismissed: true }),
      reset: () => set({ lowBalanceDismissed: false }),
    }),
    { name: 'portal-banners', storage: createJSONStorage(() => sessionStorage) },
  ),
);
