import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedWebhookResponse, type CreateWebhookRequest } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { WEBHOOKS_KEY } from './webhooks.ts';

/** Adds an endpoint (POST partner/webhook); the reply carries the signing secret, once. */
export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateWebhookRequest) => api.post('partner/webhook', request, { schema: CreatedWebhookResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}
