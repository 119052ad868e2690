import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeliveryResponse } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { ACTIVITY_KEY } from './activity.ts';

/** Sends a finished delivery again, once, with the same webhook-id (POST partner/activity/{id}/resend). */
export function useResendDelivery() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => api.post(`partner/activity/${deliveryId}/resend`, {}, { schema: DeliveryResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ACTIVITY_KEY }),
  });
}
