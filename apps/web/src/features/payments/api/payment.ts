import { queryOptions, useQuery } from '@tanstack/react-query';
import { PaymentResponse, type PaymentKind } from '@portal/contract/payments';
import { api } from '../../../lib/api-client.ts';
import { liveQueries, MONEY_TOPICS } from '../../../lib/live-events.ts';

// the details of a payment and of the order behind a row (['payment', 'order', id]) follow its changes
liveQueries(MONEY_TOPICS, ['payment']);

/** GET collections/{id} or disbursements/{id}; under ['payment'], which the live event stream refetches. */
export const paymentQuery = (kind: PaymentKind, id: string) =>
  queryOptions({
    queryKey: ['payment', kind, id],
    queryFn: () => api.get(`${kind === 'collection' ? 'collections' : 'disbursements'}/${id}`, { schema: PaymentResponse }),
  });
export const usePayment = (kind: PaymentKind, id: string) => useQuery(paymentQuery(kind, id));
