import { useMutation } from '@tanstack/react-query';
import { PaymentResponse, type CollectionRequest, type DisbursementRequest } from '@portal/contract/payments';
import { api } from '../../../lib/api-client.ts';

export type CreateInput = { kind: 'disbursement'; body: DisbursementRequest } | { kind: 'collection'; body: CollectionRequest };

/** POST partner/disbursement or partner/collection; the body's sequenceId makes a retry of one confirmation safe. */
export const useCreatePayment = () =>
  useMutation({
    mutationFn: (input: CreateInput) => api.post(`partner/${input.kind}`, input.body, { schema: PaymentResponse }),
  });
