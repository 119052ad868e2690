import { useMutation } from '@tanstack/react-query';
import { PaymentResponse, type CollectionRequest, type DisbursementRequest } from '@portal/contract/payments';
import { api } from '../../../lib/api-client.ts';

export type CreateInput = { kind: 'disbursement'; body: DisbursementRequest } | { kind: 'collection'; body: CollectionRequest };

/**
 * POST partner/disbursement or partner/collection. The body's sequenceId makes sending it again safe (the server
 * answers the first payment and books nothing), so through an outage (a failover, a cut) it is sent again once the
 * server is back, as a withdrawal is, rather than shown as failed.
 */
export const useCreatePayment = () =>
  useMutation({
    mutationFn: (input: CreateInput) => api.post(`partner/${input.kind}`, input.body, { schema: PaymentResponse, idempotent: true }),
  });
