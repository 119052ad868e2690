import { useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { PartnerProfile } from '@portal/contract/partner';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';
import { rememberPartner, rememberedPartner, type RememberedPartner } from './remembered.ts';

/**
 * The partner, its flags, and the user as the server sees it now: a role changed since the sign-in (the live
 * stream's `access` event reads the profile again) updates the session's user, which redraws navigation, buttons
 * and guards.
 */
export const profileQuery = queryOptions({
  queryKey: ['partner', 'profile'],
  // a read made stale again while it runs (an `access` event) is let go (signal), not left to run beside the next one
  queryFn: async ({ signal }) => {
    const profile = await startOr('profile', PartnerProfile, () => api.get('partner/profile', { schema: PartnerProfile, signal }));
    if (profile.user) {
      useSession.getState().updateUser(profile.user);
      rememberPartner(profile.user.id, profile);
    }
    return profile;
  },
  staleTime: 60 * 60 * 1000,
});

/** The signed-in user's partner and feature flags; only asked for once the user is verified. */
export function useProfile() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...profileQuery, enabled: verified });
}

/**
 * The partner the frame draws: the server's once it has arrived, until then the one this browser last showed this
 * user (`provisional`), or none. For drawing only: the guard decides on `useProfile`.
 */
export function useFramePartner(): { data: RememberedPartner | undefined; provisional: boolean } {
  const profile = useProfile();
  const userId = useSession((s) => s.user?.id);
  const remembered = useMemo(() => rememberedPartner(userId), [userId]);
  if (profile.data) return { data: profile.data, provisional: false };
  return { data: remembered, provisional: true };
}
