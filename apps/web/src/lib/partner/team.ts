import { queryOptions, useQuery } from '@tanstack/react-query';
import { TeamResponse } from '@portal/contract/team';
import { api } from '../api-client.ts';
import { liveQueries } from '../live-events.ts';

export const TEAM_KEY = ['partner', 'users'] as const;
// an invitation, a role change or a removal by another admin shows at once
liveQueries('team', TEAM_KEY);

/** GET partner/users: the partner's team (every role may read it). */
export const teamQuery = queryOptions({
  queryKey: TEAM_KEY,
  queryFn: async () => (await api.get('partner/users', { schema: TeamResponse })).users,
  // statuses and last sign-ins change elsewhere: read the team afresh on every visit
  staleTime: 0,
});

export const useTeam = () => useQuery(teamQuery);
