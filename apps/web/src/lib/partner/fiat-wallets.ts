import { queryOptions, useQuery } from '@tanstack/react-query';
import { FIAT_WALLET_MESSAGES, FiatWalletsResponse, type FiatWallet } from '@portal/contract/fiat-wallets';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';
import { currentLanguage, localizeMessage, type Language } from '../i18n.ts';
import { displayName } from '@portal/contract/written';

export const FIAT_WALLETS_KEY = ['partner', 'fiat-wallets'] as const;

/**
 * GET partner/fiat-wallets: the default USD wallet first, then the partner's others, each with its ledger balance.
 * Read by the fiat-wallet screens and by the transaction tables' wallet selector. Failures read as portal-core §8.
 */
export const fiatWalletsQuery = queryOptions({
  queryKey: FIAT_WALLETS_KEY,
  queryFn: async (): Promise<FiatWallet[]> => {
    if (!useSession.getState().user?.token) throw new Error(localizeMessage(FIAT_WALLET_MESSAGES.noUserForGet));
    try {
      return (await startOr('fiatWallets', FiatWalletsResponse, () => api.get('partner/fiat-wallets', { schema: FiatWalletsResponse }))).fiatWallets;
    } catch (err) {
      throw new Error(localizeMessage(FIAT_WALLET_MESSAGES.fetchFailed(err instanceof Error ? err.message : String(err))));
    }
  },
  staleTime: 60_000,
});

/** The partner's fiat wallets; asked for only when `enabled` (the partner has fiat wallets) and signed in. */
export function useFiatWallets(enabled = true) {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...fiatWalletsQuery, enabled: verified && enabled });
}

/** "Nigeria" for NG in the language in force (the code itself when unknown). */
export const countryName = (code: string, language: Language = currentLanguage()) => displayName('region', code, language) ?? code;
/** "Nigerian Naira" for NGN in the language in force ("naira nigérian"). */
export const currencyName = (code: string, language: Language = currentLanguage()) => displayName('currency', code, language) ?? code;
