import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMessageResponse } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** POST users/resend-invite: a new temporary password by e-mail (the old one stops working). */
export function useResendInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => (await api.post('users/resend-invite', { userId }, { schema: TeamMessageResponse })).message,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
