import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeliveryResponse } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { ACTIVITY_KEY } from './activity.ts';

/** Sends a WEBHOOK.TEST event to one endpoint (POST partner/webhook/{id}/test). */
export function useSendTestEvent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => api.post(`partner/webhook/${webhookId}/test`, {}, { schema: DeliveryResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ACTIVITY_KEY }),
  });
}
