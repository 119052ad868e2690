import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RolledWebhookSecretResponse, type RollWebhookSecretRequest } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { WEBHOOKS_KEY } from './webhooks.ts';

/** Rolls an endpoint's signing secret (POST partner/webhook/{id}/roll-secret); the reply carries the new secret, once. */
export function useRollWebhookSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...request }: RollWebhookSecretRequest & { id: string }) =>
      api.post(`partner/webhook/${id}/roll-secret`, request, { schema: RolledWebhookSecretResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}
