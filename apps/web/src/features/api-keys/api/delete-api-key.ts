import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageResponse } from '@portal/contract/auth';
import { api } from '../../../lib/api-client.ts';
import { API_KEYS_KEY } from './list-api-keys.ts';

/** DELETE partner/apikey/{apiKey}: calls signed with the key are refused at once. */
export function useDeleteApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (apiKey: string) => api.delete(`partner/apikey/${encodeURIComponent(apiKey)}`, { schema: MessageResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
