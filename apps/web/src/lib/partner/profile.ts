import { queryOptions, useQuery } from '@tanstack/react-query';
import { PartnerProfile } from '@portal/contract/partner';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';

export const profileQuery = queryOptions({
  queryKey: ['partner', 'profile'],
  queryFn: () => api.get('partner/profile', { schema: PartnerProfile }),
  staleTime: 60 * 60 * 1000,
});

/** The signed-in user's partner and feature flags; only asked for once the user is verified. */
export function useProfile() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...profileQuery, enabled: verified });
}
