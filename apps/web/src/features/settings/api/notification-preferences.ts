import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NotificationPreferences, type NotificationTopic } from '@portal/contract/notifications';
import { api } from '../../../lib/api-client.ts';

const KEY = ['user', 'notification-preferences'] as const;

/** GET user/notification-preferences: which topics of the caller's role also come by e-mail. */
export function useNotificationPreferences() {
  return useQuery({ queryKey: KEY, queryFn: () => api.get('user/notification-preferences', { schema: NotificationPreferences }) });
}

/** PUT user/notification-preferences: one topic's e-mail on or off; the answer is the whole list. */
export function useSaveNotificationPreference() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (choice: { topic: NotificationTopic; enabled: boolean }) =>
      api.put('user/notification-preferences', { email: [choice] }, { schema: NotificationPreferences }),
    onSuccess: (data) => qc.setQueryData(KEY, data),
  });
}
