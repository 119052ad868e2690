import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { NotificationList, type MarkNotificationsRead } from '@portal/contract/notifications';
import { api } from '../../../lib/api-client.ts';
import { liveQueries } from '../../../lib/live-events.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { startOr } from '../../../lib/start.ts';

export const NOTIFICATIONS_KEY = ['notifications'] as const;
// a notification written for anyone of the partner makes the bell read its list again (each reads only their own)
liveQueries('notifications', NOTIFICATIONS_KEY);

/** GET notifications: the caller's newest notifications and how many are unread. */
export function useNotifications(enabled: boolean) {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: () => startOr('notifications', NotificationList, () => api.get('notifications', { schema: NotificationList })),
    enabled: verified && enabled,
  });
}

/** POST notifications/read: these, or all; the list is read again after. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkNotificationsRead) => api.post('notifications/read', body, { schema: z.object({ updated: z.number() }) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
