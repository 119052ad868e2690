import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChannelsResponse } from '@portal/contract/coverage';
import { api } from '../../../lib/api-client.ts';

/** Every active channel (GET channels): a few hundred rows at most, loaded once and filtered on the page. */
export const channelsQuery = queryOptions({
  queryKey: ['coverage', 'channels'],
  queryFn: () => api.get('channels', { schema: ChannelsResponse }),
  staleTime: 10 * 60_000,
});

export const useChannels = () => useQuery(channelsQuery);
