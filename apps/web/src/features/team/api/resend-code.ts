import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMessageResponse } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** PUT users/resend-code/{userId}: a new password-reset code for a member whose password was reset. */
export function useResendCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => (await api.put(`users/resend-code/${encodeURIComponent(userId)}`, {}, { schema: TeamMessageResponse })).message,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
