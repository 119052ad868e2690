import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChannelsResponse, NetworksResponse } from '@portal/contract/coverage';
import { PaymentMarketsResponse } from '@portal/contract/payments';
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
/** The partner's enabled countries (GET partner/payments/markets): the only ones a quote accepts, so the only ones offered. */
export const paymentMarketsQuery = queryOptions({
  queryKey: ['payments', 'markets'],
  queryFn: () => api.get('partner/payments/markets', { schema: PaymentMarketsResponse }),
  staleTime: 30_000,
});
export const useChannels = () => useQuery(paymentChannelsQuery);
export const useNetworks = () => useQuery(paymentNetworksQuery);
export const useMarkets = () => useQuery(paymentMarketsQuery);
