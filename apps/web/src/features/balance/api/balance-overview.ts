import { useQuery } from '@tanstack/react-query';
import { BalanceOverview } from '@portal/contract/balance';
import { api } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session/session-store.ts';

export const balanceOverviewKey = ['partner', 'balance'] as const;

/** GET partner/balance: available, reserved and under way, the last movements. Read again when the screen opens. */
export function useBalanceOverview() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({
    queryKey: balanceOverviewKey,
    queryFn: () => api.get('partner/balance', { schema: BalanceOverview }),
    enabled: verified,
    staleTime: 0,
  });
}

/** Where a movement's transaction is shown: its table, searched by its id (an opening balance and test funds have none). */
export function movementLink(kind: string, reference: string): string | undefined {
  if (kind === 'opening_balance' || kind === 'test_funds') return undefined;
  // withdrawals and top-ups are both rows of the settlements table
  const tab = kind.startsWith('settlement') || kind === 'topup' ? 3 : kind.startsWith('collection') ? 2 : 1;
  return `/transactions?tab=${tab}&id=${encodeURIComponent(reference)}`;
}
