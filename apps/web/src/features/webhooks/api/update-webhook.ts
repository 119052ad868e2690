import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WebhookResponse, type UpdateWebhookRequest } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { WEBHOOKS_KEY } from './webhooks.ts';

/** Changes an endpoint's URL, events, description or active state (PUT partner/webhook). */
export function useUpdateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateWebhookRequest) => api.put('partner/webhook', request, { schema: WebhookResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}
