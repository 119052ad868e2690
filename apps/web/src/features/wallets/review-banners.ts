import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

type State = { dismissed: string[]; dismiss: (address: string) => void; reset(): void };

/** Wallet-review banners dismissed, per address (portal-core §4), until the next sign-in. */
export const useReviewBanners = create<State>()(
  persist(
    (set) => ({
      dismissed: [],
      dismiss: (address) => set((s) => ({ dismissed: [...new Set([...s.dismissed, address])] })),
      reset: () => set({ dismissed: [] }),
    }),
    { name: 'portal-wallet-review-banners', storage: createJSONStorage(() => sessionStorage) },
  ),
);
