import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMemberResponse, type InviteUserRequest } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from './team-members.ts';

/** POST users/add: invites by e-mail (a temporary password); the team is reloaded. */
export function useInviteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: InviteUserRequest) => (await api.post('users/add', body, { schema: TeamMemberResponse })).user,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
