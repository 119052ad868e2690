import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MANUAL_PAYOUT, PayoutConfigResponse, type PayoutConfig } from '@portal/contract/payout';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** The payout configuration; a failed load falls back to manual, silently (portal-core §4). */
export function usePayoutConfig() {
  return useQuery({
    queryKey: ['partner', 'payout-config'],
    queryFn: async () => {
      try {
        return await api.get('partner/payout-config', { schema: PayoutConfigResponse });
      } catch {
        return { config: { ...MANUAL_PAYOUT }, nextPayoutDate: null };
      }
    },
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
    mutationFn: (lowBalanceLimit: string) => api.post('partner/low-balance-limit', { lowBalanceLimit }, { schema: z.object({ lowBalanceLimit: z.string() }) }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['partner', 'profile'] }),
  });
}
