import { useQuery } from '@tanstack/react-query';
import { TravelRuleResponse, WITHDRAWAL_MESSAGES } from '@portal/contract/settlements';
import { api } from '../../../lib/api-client.ts';

/** GET partner/travel-rule: from which amount a withdrawal carries which recipient details. On failure the config is cleared. */
export function useTravelRule() {
  return useQuery({
    queryKey: ['partner', 'travel-rule'],
    queryFn: async () => {
      try {
        return await api.get('partner/travel-rule', { schema: TravelRuleResponse });
      } catch {
        throw new Error(WITHDRAWAL_MESSAGES.travelRuleFetchFailed);
      }
    },
    staleTime: 60 * 60 * 1000,
  });
}
