import { useQuery } from '@tanstack/react-query';
import { PaymentResponse, type Payment } from '@portal/contract/payments';
import { ApiError, api } from '../../../lib/api-client.ts';

/**
 * The order behind an initiated payment's row (GET disbursements/{id}, else GET collections/{id}): its timeline of
 * states, fee and total, which the row does not carry. Under ['payment'], so the live event stream refetches it.
 */
export function usePaymentOrder(id: string | undefined) {
  return useQuery({
    queryKey: ['payment', 'order', id],
    enabled: !!id,
    queryFn: async (): Promise<Payment> => {
      try {
        return (await api.get(`disbursements/${id}`, { schema: PaymentResponse })).payment;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return (await api.get(`collections/${id}`, { schema: PaymentResponse })).payment;
        throw err;
      }
    },
  });
}
