import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IpAddressResponse, type UpdateIpAddressRequest } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { IP_ADDRESSES_KEY } from './list-ip-addresses.ts';

/** PUT partner/ip-address {ipAddress, newIpAddress, otp}: the code e-mailed for this change authorises it. */
export function useUpdateIpAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateIpAddressRequest) => api.put('partner/ip-address', request, { schema: IpAddressResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: IP_ADDRESSES_KEY }),
  });
}
