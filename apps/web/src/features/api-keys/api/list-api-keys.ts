import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiKeyListResponse } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { liveQueries } from '../../../lib/live-events.ts';

export const API_KEYS_KEY = ['partner', 'apikey'] as const;
// a key changed by another admin, or used (its last use), shows at once
liveQueries('api-keys', API_KEYS_KEY);

/** GET partner/apikey: the partner's keys, most recently changed first, never their secrets. */
export const apiKeysQuery = queryOptions({
  queryKey: API_KEYS_KEY,
  queryFn: () => api.get('partner/apikey', { schema: ApiKeyListResponse }),
});

export const useApiKeys = () => useQuery(apiKeysQuery);
