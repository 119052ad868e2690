import { useQuery } from '@tanstack/react-query';
import { DepositAddressResponse } from '@portal/contract/partner';
import type { CurrencyNetworkId } from '@portal/contract/domain';
import { ApiError, api } from '../../../lib/api-client.ts';

/** The deposit address for a currency network; null when the partner has none for it. */
export function useDepositAddress(currencyNetwork: CurrencyNetworkId) {
  return useQuery({
    queryKey: ['partner', 'address', currencyNetwork],
    queryFn: async () => {
      try {
        return (await api.get(`partner/address?currencyNetwork=${currencyNetwork}`, { schema: DepositAddressResponse })).address;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        // on a failed fetch the shown address is cleared and the error only logged (portal-core §8)
        console.error('could not fetch the deposit address', err);
        return null;
      }
    },
    staleTime: 10 * 60_000,
  });
}
