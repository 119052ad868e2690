import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ACTIVITY_KEY } from './activity.ts';
import { WEBHOOKS_KEY } from './webhooks.ts';

/** Deletes an endpoint and its delivery history (DELETE partner/webhook/{id}?otp=). */
export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, otp }: { id: string; otp: string }) => api.delete(`partner/webhook/${id}?otp=${encodeURIComponent(otp)}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      void qc.invalidateQueries({ queryKey: ACTIVITY_KEY });
    },
  });
}
