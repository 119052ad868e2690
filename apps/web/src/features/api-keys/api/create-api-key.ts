import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeySecretResponse, type ApiKeyMode, type CreateApiKeyRequest } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { API_KEYS_KEY } from './list-api-keys.ts';

/**
 * POST partner/apikey: the reply carries the secret, which the dialog shows once and keeps nowhere else. The portal
 * always sends the mode the user chose (the server's default, live, is never relied on).
 */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiKeyRequest & { mode: ApiKeyMode }) => api.post('partner/apikey', request, { schema: ApiKeySecretResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
