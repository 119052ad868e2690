import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TestFundsResponse, type TestFundsRequest } from '@portal/contract/test-mode';
import { api } from '../../../lib/api-client.ts';
import { accountsQuery } from '../../../lib/partner/accounts.ts';
import { balanceOverviewKey } from './balance-overview.ts';

/**
 * POST partner/test-funds: test money on the test side's USD balance (admin, treasury). The reference is the top-up's
 * own: sent again through an outage, it adds the money once. The balance and the accounts are read again after (even
 * after a failure, when the money may have been added).
 */
export function useAddTestFunds() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TestFundsRequest) => api.post('partner/test-funds', body, { schema: TestFundsResponse, idempotent: true }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: balanceOverviewKey });
      void qc.invalidateQueries({ queryKey: accountsQuery.queryKey });
    },
  });
}
