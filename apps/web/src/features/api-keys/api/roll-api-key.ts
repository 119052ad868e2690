import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeySecretResponse } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { API_KEYS_KEY } from './list-api-keys.ts';

/** POST partner/apikey/{apiKey}/roll: a new secret, shown once; the old one works for the chosen minutes. */
export function useRollApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ apiKey, previousSecretMinutes }: { apiKey: string; previousSecretMinutes: number }) =>
      api.post(`partner/apikey/${encodeURIComponent(apiKey)}/roll`, { previousSecretMinutes }, { schema: ApiKeySecretResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
