import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChannelsResponse, NetworksResponse } from '@portal/contract/coverage';
import { api } from '../../../lib/api-client.ts';

/** Active channels and networks (GET channels, GET networks): reference data, loaded once and filtered on the form. */
export const paymentChannelsQuery = queryOptions({
  queryKey: ['coverage', 'channels'],
  queryFn: () => api.get('channels', { schema: ChannelsResponse }),
  staleTime: 10 * 60_000,
});
export const paymentNetworksQuery = queryOptions({
  queryKey: ['coverage', 'networks'],
  queryFn: () => api.get('networks', { schema: NetworksResponse }),
  staleTime: 10 * 60_000,
});
export const useChannels = () => useQuery(paymentChannelsQuery);
export const useNetworks = () => useQuery(paymentNetworksQuery);
