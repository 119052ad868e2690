import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AnalyticsReply, type AnalyticsQuery } from '@portal/contract/analytics';
import { api } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import type { Figures } from '../links.ts';

/**
 * GET partner/analytics: the Overview's figures of a period of days in the user's zone and a wallet. A query that
 * cannot be asked (a period refused before sending) is none: nothing is sent. The figures of the last period stay on
 * screen while the next one's load, so that nothing jumps; they are read again with the partner's shared data (every
 * hour, app-layout.tsx).
 */
export function useAnalytics(query: AnalyticsQuery | undefined) {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({
    queryKey: ['partner', 'analytics', query],
    // the figures with the days they answer for and the wallet they were asked for: what their links open
    queryFn: async ({ signal }): Promise<Figures> => {
      const reply = await api.get(`partner/analytics?${new URLSearchParams(query as Record<string, string>).toString()}`, { schema: AnalyticsReply, signal });
      return { reply, scope: { from: reply.period.from, to: reply.period.to, wallet: query!.wallet } };
    },
    enabled: verified && query !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
