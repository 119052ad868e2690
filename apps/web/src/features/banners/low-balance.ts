import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_LOW_BALANCE_LIMIT } from '@portal/contract/payout';

/** Low balance: the USD available amount is below the partner's limit, 1000 USD when none is set (portal-core §4). */
export function isLowBalance(usdAvailable: string | undefined, limit: string | null | undefined): boolean {
  if (usdAvailable === undefined) return false;
  return Number(usdAvailable) < Number(limit ?? DEFAULT_LOW_BALANCE_LIMIT);
}

type Banners = { lowBalanceDismissed: boolean; dismissLowBalance(): void; reset(): void };

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
