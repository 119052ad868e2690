import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IpAddressResponse, type AddIpAddressRequest } from '@portal/contract/api-keys';
import { api } from '../../../lib/api-client.ts';
import { IP_ADDRESSES_KEY } from './list-ip-addresses.ts';

/** POST partner/ip-address {ipAddress, otp}: the e-mailed code authorises the change. */
export function useAddIpAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: AddIpAddressRequest) => api.post('partner/ip-address', request, { schema: IpAddressResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: IP_ADDRESSES_KEY }),
  });
}
