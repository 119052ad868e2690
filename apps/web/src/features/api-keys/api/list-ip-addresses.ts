import { queryOptions, useQuery } from '@tanstack/react-query';
import { IpAddressListResponse } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { liveQueries } from '../../../lib/live-events.ts';

export const IP_ADDRESSES_KEY = ['partner', 'ip-addresses'] as const;
liveQueries('api-keys', IP_ADDRESSES_KEY);

/** GET partner/ip-addresses: the addresses API keys may call from; empty means any. */
export const ipAddressesQuery = queryOptions({
  queryKey: IP_ADDRESSES_KEY,
  queryFn: () => api.get('partner/ip-addresses', { schema: IpAddressListResponse }),
});

export const useIpAddresses = (enabled: boolean) => useQuery({ ...ipAddressesQuery, enabled });
