import { PaymentQuote, type PaymentKind } from '@portal/contract/payments';
import { api } from '../../../lib/api-client.ts';

export type QuoteInput = { kind: PaymentKind; country: string; channelId: string; amount: string };

/** GET partner/payments/quote: the rate, USD amount, fee and total of a payment before it is confirmed. */
export const fetchQuote = (q: QuoteInput) => api.get(`partner/payments/quote?${new URLSearchParams(q).toString()}`, { schema: PaymentQuote });
