import { queryOptions, useQuery } from '@tanstack/react-query';
import { WebhooksResponse } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { liveQueries } from '../../../lib/live-events.ts';

export const WEBHOOKS_KEY = ['webhooks'] as const;
liveQueries('webhooks', WEBHOOKS_KEY);

export const webhooksQuery = queryOptions({
  queryKey: WEBHOOKS_KEY,
  queryFn: () => api.get('partner/webhook', { schema: WebhooksResponse }),
});

/** The partner's webhook endpoints (GET partner/webhook). */
export const useWebhooks = () => useQuery(webhooksQuery);
