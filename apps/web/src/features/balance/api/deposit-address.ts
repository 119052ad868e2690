import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DepositAddressResponse, DepositAddressesResponse, type AssignDepositAddressRequest } from '@portal/contract/partner';
import { api } from '../../../lib/api-client.ts';

export const DEPOSIT_ADDRESSES_KEY = ['partner', 'addresses'] as const;
const NONE: DepositAddressesResponse = { addresses: [], assignable: [] };

/**
 * The partner's deposit addresses and the currency networks the user may get one for. Reading never creates an
 * address. On a failed fetch no address is shown and the error is only logged (portal-core §8).
 */
export function useDepositAddresses() {
  return useQuery({
    queryKey: DEPOSIT_ADDRESSES_KEY,
    queryFn: async () => {
      try {
        return await api.get('partner/addresses', { schema: DepositAddressesResponse });
      } catch (err) {
        console.error('could not fetch the deposit addresses', err);
        return NONE;
      }
    },
    staleTime: 10 * 60_000,
  });
}

/** Asks the server for the partner's address of a coin on a network (admin and treasury users). */
export function useAssignDepositAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: AssignDepositAddressRequest) => api.post('partner/addresses', request, { schema: DepositAddressResponse }),
    onSuccess: ({ address }) => {
      qc.setQueryData<DepositAddressesResponse>(DEPOSIT_ADDRESSES_KEY, (old) => ({
        addresses: [...(old?.addresses ?? []).filter((a) => a.currencyNetwork !== address.currencyNetwork), address],
        assignable: (old?.assignable ?? []).filter((id) => id !== address.currencyNetwork),
      }));
    },
  });
}
