import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiKeyListResponse } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';

export const API_KEYS_KEY = ['partner', 'apikey'] as const;

/** GET partner/apikey: the partner's keys, most recently changed first, never their secrets. */
export const apiKeysQuery = queryOptions({
  queryKey: API_KEYS_KEY,
  queryFn: () => api.get('partner/apikey', { schema: ApiKeyListResponse }),
});

export const useApiKeys = () => useQuery(apiKeysQuery);
