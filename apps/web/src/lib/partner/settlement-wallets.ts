import { queryOptions, useQuery } from '@tanstack/react-query';
import { WALLET_MESSAGES, WalletsResponse } from '@portal/contract/wallets';
import { ApiError, api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';
import { liveQueries } from '../live-events.ts';

// a wallet added, approved, denied or screened (by someone else, or the screening job) shows at once
liveQueries('wallets', ['partner', 'wallets']);

/** The partner's settlement wallets (GET partner/wallets): the wallets screen, its review banners and the withdrawal read them. */
export const walletsQuery = queryOptions({
  queryKey: ['partner', 'wallets'],
  queryFn: async () => {
    try {
      return await startOr('wallets', WalletsResponse, () => api.get('partner/wallets', { schema: WalletsResponse }));
    } catch (err) {
      // portal-core §8: 'could not fetch partner wallets: {reason}'
      if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${WALLET_MESSAGES.fetchFailed}${err.message}`, err.requestId);
      throw err;
    }
  },
  staleTime: 30_000,
});

export function useSettlementWallets() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...walletsQuery, enabled: verified });
}
