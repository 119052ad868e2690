import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InviteUserResponse, type InviteUserRequest } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** POST users/add: invites by e-mail (a temporary password); the member, and whether the mail left. The team is reloaded. */
export function useInviteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteUserRequest) => api.post('users/add', body, { schema: InviteUserResponse }),
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
