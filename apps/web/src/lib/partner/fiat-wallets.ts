import { queryOptions, useQuery } from '@tanstack/react-query';
import { FIAT_WALLET_MESSAGES, FiatWalletsResponse, type FiatWallet } from '@portal/contract/fiat-wallets';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';

export const FIAT_WALLETS_KEY = ['partner', 'fiat-wallets'] as const;

/**
 * GET partner/fiat-wallets: the default USD wallet first, then the partner's others, each with its ledger balance.
 * Read by the fiat-wallet screens and by the transaction tables' wallet selector. Failures read as portal-core §8.
 */
export const fiatWalletsQuery = queryOptions({
  queryKey: FIAT_WALLETS_KEY,
  queryFn: async (): Promise<FiatWallet[]> => {
    if (!useSession.getState().user?.token) throw new Error(FIAT_WALLET_MESSAGES.noUserForGet);
    try {
      return (await startOr('fiatWallets', FiatWalletsResponse, () => api.get('partner/fiat-wallets', { schema: FiatWalletsResponse }))).fiatWallets;
    } catch (err) {
      throw new Error(FIAT_WALLET_MESSAGES.fetchFailed(err instanceof Error ? err.message : String(err)));
    }
  },
  staleTime: 60_000,
});

/** The partner's fiat wallets; asked for only when `enabled` (the partner has fiat wallets) and signed in. */
export function useFiatWallets(enabled = true) {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...fiatWalletsQuery, enabled: verified && enabled });
}

// made on first use: building them costs ~20 ms of a phone's first paint, and most screens that load this file never ask
let regions: Intl.DisplayNames | undefined;
let currencies: Intl.DisplayNames | undefined;
/** "Nigeria" for NG (the code itself when unknown). */
export const countryName = (code: string) => {
  try {
    return (regions ??= new Intl.DisplayNames(['en'], { type: 'region' })).of(code) ?? code;
  } catch {
    return code;
  }
};
/** "Nigerian Naira" for NGN. */
export const currencyName = (code: string) => {
  try {
    return (currencies ??= new Intl.DisplayNames(['en'], { type: 'currency' })).of(code) ?? code;
  } catch {
    return code;
  }
};
