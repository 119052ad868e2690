import { queryOptions, useQuery } from '@tanstack/react-query';
import { PartnerProfile } from '@portal/contract/partner';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';

/**
 * The partner, its flags, and the user as the server sees it now: a role changed since the sign-in (the live
 * stream's `access` event reads the profile again) updates the session's user, which redraws navigation, buttons
 * and guards.
 */
export const profileQuery = queryOptions({
  queryKey: ['partner', 'profile'],
  queryFn: async () => {
    const profile = await api.get('partner/profile', { schema: PartnerProfile });
    if (profile.user) useSession.getState().updateUser(profile.user);
    return profile;
  },
  staleTime: 60 * 60 * 1000,
});

/** The signed-in user's partner and feature flags; only asked for once the user is verified. */
export function useProfile() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...profileQuery, enabled: verified });
}
