import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LowBalanceLimitResponse, PayoutConfigResponse, type PayoutConfig } from '@portal/contract/payout';
import { api } from '../../../lib/api-client.ts';

/**
 * The stored payout configuration. A failed load stays an error here (not a manual default): the form shows manual
 * but refuses to save until the real configuration is known.
 */
export function usePayoutConfig() {
  return useQuery({
    queryKey: ['partner', 'payout-config'],
    queryFn: () => api.get('partner/payout-config', { schema: PayoutConfigResponse }),
  });
}

export function useSavePayoutConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (config: PayoutConfig) => {
      if (!config) throw new Error('Payout request object not set');
      return api.post('partner/payout-config', config, { schema: PayoutConfigResponse });
    },
    onSuccess: (data) => {
      qc.setQueryData(['partner', 'payout-config'], data);
      void qc.invalidateQueries({ queryKey: ['partner', 'profile'] });
    },
  });
}

export function useSaveLowBalanceLimit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (lowBalanceLimit: string) => api.post('partner/low-balance-limit', { lowBalanceLimit }, { schema: LowBalanceLimitResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['partner', 'profile'] }),
  });
}
