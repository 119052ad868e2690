import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMemberResponse, type UpdateUserRequest } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** POST users/update: a member's role; the team is reloaded. */
export function useUpdateRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateUserRequest) => (await api.post('users/update', body, { schema: TeamMemberResponse })).user,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
