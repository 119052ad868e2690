import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageResponse } from '@portal/contract/auth';
import { api } from '../../../lib/api-client.ts';
import { IP_ADDRESSES_KEY } from './list-ip-addresses.ts';

/** DELETE partner/ip-address?ipAddress=&otp= (portal-core §7). */
export function useDeleteIpAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ipAddress, otp }: { ipAddress: string; otp: string }) =>
      api.delete(`partner/ip-address?${new URLSearchParams({ ipAddress, otp }).toString()}`, { schema: MessageResponse }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: IP_ADDRESSES_KEY }),
  });
}
