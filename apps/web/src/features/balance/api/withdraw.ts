import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WITHDRAWAL_MESSAGES, WithdrawalResponse, type SettlementRequest } from '@portal/contract/settlements';
import { ApiError, api } from '../../../lib/api-client.ts';
import { accountsQuery } from '../../../lib/partner/accounts.ts';
import { balanceOverviewKey } from './balance-overview.ts';

/**
 * POST partner/settlement/withdrawal. The request carries its sequenceId: sending it again (a retry after a lost
 * reply, a second click) answers the first withdrawal and books nothing. So through an outage it is sent again, with
 * the same sequenceId, once the server is back (the dialog says so meanwhile).
 */
export function useWithdraw() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (request: SettlementRequest) => {
      try {
        return await api.post('partner/settlement/withdrawal', request, { schema: WithdrawalResponse, idempotent: true });
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${WITHDRAWAL_MESSAGES.failed}${err.message}`, err.requestId);
        throw err;
      }
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: accountsQuery.queryKey });
      void qc.invalidateQueries({ queryKey: balanceOverviewKey });
      void qc.invalidateQueries({ queryKey: ['transactions'] });
    },
  });
}
