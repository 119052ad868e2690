import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeyResponse, type UpdateApiKeyRequest } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { API_KEYS_KEY } from './list-api-keys.ts';

/** PUT partner/apikey: active or disabled ('Active' / 'Inactive'). */
export function useUpdateApiKeyStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateApiKeyRequest) => {
      if (!request.apiKey) throw new Error('cannot update api key status if user is undefined');
      return api.put('partner/apikey', request, { schema: ApiKeyResponse });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
