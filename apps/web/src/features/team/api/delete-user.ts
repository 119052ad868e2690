import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamMessageResponse } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';
import { TEAM_KEY } from '../../../lib/partner/team.ts';

/** PUT users/delete/{userId}: removes a member; its sessions end at once. */
export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => (await api.put(`users/delete/${encodeURIComponent(userId)}`, {}, { schema: TeamMessageResponse })).message,
    onSettled: () => qc.invalidateQueries({ queryKey: TEAM_KEY }),
  });
}
