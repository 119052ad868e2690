import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RateStatusResponse, type RateChangeRequest } from '@portal/contract/rates';
import { api } from '../../../lib/api-client.ts';
import { ratesQuery } from '../../../lib/partner/rates.ts';

/** Asks for enable or disable changes (PUT partner/rates); the rates load again whatever the outcome. */
export function useRequestRateChanges() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rates: RateChangeRequest['rates']) => api.put('partner/rates', { rates }, { schema: RateStatusResponse }),
    onSettled: () => qc.invalidateQueries({ queryKey: ratesQuery.queryKey }),
  });
}
