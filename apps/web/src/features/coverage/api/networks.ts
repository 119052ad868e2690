import { queryOptions, useQuery } from '@tanstack/react-query';
import { NetworksResponse } from '@portal/contract/coverage';
import { api } from '../../../lib/api-client.ts';

/** Every active payment network (GET networks), loaded once and filtered on the page. */
export const networksQuery = queryOptions({
  queryKey: ['coverage', 'networks'],
  queryFn: () => api.get('networks', { schema: NetworksResponse }),
  staleTime: 10 * 60_000,
});

export const useNetworks = () => useQuery(networksQuery);
