import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMessageResponse } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** POST user/reset-password: signs the member out everywhere; its next sign-in asks for the e-mailed code. */
export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => (await api.post('user/reset-password', { userId }, { schema: TeamMessageResponse })).message,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
