import { queryOptions, useQuery } from '@tanstack/react-query';
import { PartnerAccounts } from '@portal/contract/partner';
import { api } from '../api-client.ts';
import { useSession } from '../session/session-store.ts';
import { startOr } from '../start.ts';
import { commonMessages } from '../common-messages.ts';
import { translator } from '../i18n.ts';

export const accountsQuery = queryOptions({
  queryKey: ['partner', 'accounts'],
  queryFn: async () => {
    const res = await startOr('accounts', PartnerAccounts, () => api.get('partner/accounts', { schema: PartnerAccounts }));
    if (!res.accounts) throw new Error(translator(commonMessages)('errors.noAccounts'));
    return res;
  },
  staleTime: 60_000,
});

export function useAccounts() {
  const verified = useSession((s) => s.verified && s.user !== undefined);
  return useQuery({ ...accountsQuery, enabled: verified });
}

/** The balance shown: the available amount of the USD account, or 0 (portal-core §9). */
export function usdAvailable(accounts: PartnerAccounts['accounts'] | undefined): string {
  return accounts?.find((a) => a.currency === 'USD')?.available ?? '0';
}
