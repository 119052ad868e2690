import { Fragment, useEffect, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPreferences } from '@portal/contract/team';
import { api } from './api-client.ts';
import { setDisplayTimeZone } from './format.ts';
import { useSession } from './session/session-store.ts';

/** The zone the browser is in ("Africa/Nairobi"); UTC when it does not say. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const preferencesKey = (userId: string | undefined) => ['user', userId, 'preferences'] as const;
/** Other tabs of the same browser hear of a change at once (and read the preference again). */
const CHANNEL = 'portal-time-zone';

function announce() {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/**
 * The signed-in user's time zone: the one every time, date filter and export uses (UTC unless the user chose their
 * browser's, saved on the server per user). Reading it also makes it the zone of the shared formatter.
 */
export function useTimeZone() {
  const userId = useSession((s) => s.user?.id);
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: preferencesKey(userId),
    queryFn: () => api.get('user/preferences', { schema: UserPreferences }),
    enabled: Boolean(userId),
    staleTime: Infinity,
  });
  const save = useMutation({
    mutationFn: (timeZone: string | null) => api.put('user/preferences', { timeZone }, { schema: UserPreferences }),
    onSuccess: (data) => {
      qc.setQueryData(preferencesKey(userId), data);
      announce();
    },
  });
  const chosen = query.data?.timeZone ?? null;
  const zone = chosen ?? 'UTC';
  if (query.isSuccess) setDisplayTimeZone(zone);
  return { zone, chosen, pending: query.isPending && Boolean(userId), browser: browserTimeZone(), save };
}

/**
 * The signed-in pages, drawn in the user's zone: once the preference is known (at once when it is cached), and drawn
 * again when it changes, here or in another tab, so that every time on screen follows it together.
 */
export function TimeZoneScope({ children }: { children: ReactNode }) {
  const userId = useSession((s) => s.user?.id);
  const qc = useQueryClient();
  const { zone, pending } = useTimeZone();
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void qc.invalidateQueries({ queryKey: preferencesKey(userId) });
    return () => channel.close();
  }, [qc, userId]);
  if (pending) return null;
  return <Fragment key={zone}>{children}</Fragment>;
}
