import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageResponse } from '@portal/contract/auth';
import {
  ActiveSessionsResponse,
  SECURITY_EXPORT_MAX,
  SECURITY_PAGE_MAX,
  SecurityHistoryResponse,
  type SecurityEvent,
  type SecurityKind,
} from '@portal/contract/security';
import { api } from '../../../lib/api-client.ts';

/** What the history is filtered by: a member (admins only), a kind, calendar days in the zone the portal shows. */
export type HistoryFilters = { person?: string; kind?: SecurityKind; from?: string; to?: string; timeZone: string };

const HISTORY_PAGE = 50;

function historyPath(filters: HistoryFilters, limit: number, cursor?: string | null) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  return `security-history?${params.toString()}`;
}

/** GET security-history, a page at a time (newest first). */
export const historyQuery = (filters: HistoryFilters) =>
  infiniteQueryOptions({
    queryKey: ['security-history', filters],
    queryFn: ({ pageParam }) => api.get(historyPath(filters, HISTORY_PAGE, pageParam), { schema: SecurityHistoryResponse }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });

export const useHistory = (filters: HistoryFilters) => useInfiniteQuery(historyQuery(filters));

/** Every row the filters match, up to the export's ceiling, the biggest pages the server gives; `onProgress` after each. */
export async function fetchWholeHistory(filters: HistoryFilters, onProgress: (loaded: number) => void): Promise<SecurityEvent[]> {
  const all: SecurityEvent[] = [];
  let cursor: string | null = null;
  do {
    const page: SecurityHistoryResponse = await api.get(historyPath(filters, SECURITY_PAGE_MAX, cursor), { schema: SecurityHistoryResponse });
    all.push(...page.items);
    cursor = page.nextCursor;
    onProgress(all.length);
  } while (cursor && all.length < SECURITY_EXPORT_MAX);
  return all.slice(0, SECURITY_EXPORT_MAX);
}

const SESSIONS_KEY = ['me', 'sessions'] as const;

/** GET me/sessions: the caller's open sessions. */
export const sessionsQuery = queryOptions({
  queryKey: SESSIONS_KEY,
  queryFn: async () => (await api.get('me/sessions', { schema: ActiveSessionsResponse })).sessions,
  staleTime: 0,
});
export const useSessions = () => useQuery(sessionsQuery);

/** DELETE me/sessions/{id}: ends another of the caller's sessions; the list and the history are read again. */
export function useEndSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`me/sessions/${id}`, { schema: MessageResponse }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: SESSIONS_KEY });
      void qc.invalidateQueries({ queryKey: ['security-history'] });
    },
  });
}
