import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PartnerRatesResponse, RATE_MESSAGES, RateStatusResponse, isPending, type PartnerRate, type RateReviewRequest } from '@portal/contract/rates';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';
import { useProfile } from './profile.ts';
import { liveQueries } from '../live-events.ts';
import { localizeMessage } from '../i18n.ts';

// a change asked for, approved or refused (by another admin) shows at once
liveQueries('countries', ['partner', 'rates']);

/**
 * The partner's country rates (enabled countries): read by the countries screen and by the pending-country banner
 * of every page, so they live here. Rates load only for B2B partners with the enabled-countries flag.
 */
export const ratesQuery = queryOptions({
  queryKey: ['partner', 'rates'],
  queryFn: async () => {
    try {
      return await startOr('rates', PartnerRatesResponse, () => api.get('partner/rates', { schema: PartnerRatesResponse }));
    } catch (err) {
      throw Object.assign(new Error(localizeMessage(RATE_MESSAGES.fetchFailed)), { cause: err });
    }
  },
  staleTime: 30_000,
});

/** Whether the partner has enabled countries at all (B2B, flag on). */
export function useHasEnabledCountries(): boolean {
  const profile = useProfile();
  return !!profile.data?.partner.isB2B && !!profile.data.featureFlags.enabledCountriesEnabled;
}

/**
 * The rates; with `poll`, refreshed every minute so that an admin sees a colleague's request without reloading;
 * `enabled: false` asks for nothing.
 */
export function usePartnerRates(options: { poll?: boolean; enabled?: boolean } = {}) {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  const has = useHasEnabledCountries();
  return useQuery({ ...ratesQuery, enabled: verified && has && options.enabled !== false, refetchInterval: options.poll ? 60_000 : false });
}

export const pendingRates = (rates: PartnerRate[] | undefined) => (rates ?? []).filter((r) => isPending(r.status));

/** Approves or denies pending changes (PUT partner/rates/review); the rates load again whatever the outcome. */
export function useReviewRates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rates: RateReviewRequest['rates']) => api.put('partner/rates/review', { rates }, { schema: RateStatusResponse }),
    onSettled: () => qc.invalidateQueries({ queryKey: ratesQuery.queryKey }),
  });
}
