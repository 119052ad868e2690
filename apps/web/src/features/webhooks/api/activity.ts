import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { WebhookActivityResponse, type DeliveryStatus } from '@portal/contract/webhooks';
import { api } from '../../../lib/api-client.ts';
import { liveQueries } from '../../../lib/live-events.ts';

export const ACTIVITY_KEY = ['webhook-activity'] as const;
// each delivery attempt shows at once
liveQueries('webhooks', ACTIVITY_KEY);
export const ACTIVITY_PAGE_SIZE = 10;

export type ActivityFilter = { webhookId?: string; status?: DeliveryStatus; startIndex: number };

export const activityQuery = (filter: ActivityFilter) =>
  queryOptions({
    queryKey: [...ACTIVITY_KEY, filter],
    queryFn: () => {
      const params = new URLSearchParams({ type: 'webhook', startIndex: String(filter.startIndex), size: String(ACTIVITY_PAGE_SIZE) });
      if (filter.webhookId) params.set('webhookId', filter.webhookId);
      if (filter.status) params.set('status', filter.status);
      return api.get(`partner/activity?${params}`, { schema: WebhookActivityResponse });
    },
    placeholderData: keepPreviousData,
    // while a delivery is being attempted, its attempts show up by themselves
    refetchInterval: (q) => (q.state.data?.activities.some((a) => a.status === 'pending') ? 2000 : false),
  });

/** Webhook deliveries, newest first, with their attempts (GET partner/activity?type=webhook). */
export const useWebhookActivity = (filter: ActivityFilter, enabled = true) => useQuery({ ...activityQuery(filter), enabled });
