import { useQuery } from '@tanstack/react-query';
import { PaymentResponse, type Payment } from '@portal/contract/payments';
import { ApiError, api } from '../../../lib/api-client.ts';
import { liveQueries, MONEY_TOPICS } from '../../../lib/live-events.ts';

liveQueries(MONEY_TOPICS, ['payment', 'order']);

/**
 * The order behind an initiated payment's row (GET disbursements/{id}, else GET collections/{id}): its timeline of
 * states, fee and total, which the row does not carry; null for a row with no order behind it (payments imported
 * from before, as the demo's history). Under ['payment'], so the live event stream refetches it.
 */
export function usePaymentOrder(id: string | undefined) {
  return useQuery({
    queryKey: ['payment', 'order', id],
    enabled: !!id,
    queryFn: async (): Promise<Payment | null> => {
      const notFound = (err: unknown) => err instanceof ApiError && err.status === 404;
      try {
        return (await api.get(`disbursements/${id}`, { schema: PaymentResponse })).payment;
      } catch (err) {
        if (!notFound(err)) throw err;
      }
      try {
        return (await api.get(`collections/${id}`, { schema: PaymentResponse })).payment;
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
  });
}
