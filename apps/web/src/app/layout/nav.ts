import type { FeatureFlags, Role } from '@portal/contract/domain';
import type { Partner as PartnerRecord } from '@portal/contract/partner';
import { hasBalance } from '../../lib/partner/access.ts';

export type NavItem = { label: string; to: string };
export type NavGroup = { title: string; items: NavItem[] };
type Partner = Pick<PartnerRecord, 'isB2B' | 'isCommercial' | 'isWhitelistedCommercial'>;

/** The side navigation of portal-core §2 for the partner's kind, flags and the user's role. Log out is added by the layout. */
export function navGroups(partner: Partner, flags: FeatureFlags, role: Role): NavGroup[] {
  const when = (ok: boolean, item: NavItem) => (ok ? [item] : []);
  const settings = { label: 'Settings', to: '/settings' };
  if (partner.isCommercial) {
    return [
      {
        title: 'Your business',
        items: [
          { label: 'Trades', to: '/trades' },
          ...when(partner.isWhitelistedCommercial && flags.paymentsViewEnabled, { label: 'Initiate payments', to: '/payments' }),
          ...when(hasBalance(partner), { label: 'Balance', to: '/balance' }),
          ...when(flags.walletManagementEnabled, { label: 'Wallet Management', to: '/wallets' }),
        ],
      },
      { title: 'Your account', items: [settings] },
    ];
  }
  const groups: NavGroup[] = [
    {
      title: 'Your business',
      items: [
        { label: 'Transactions', to: '/transactions' },
        ...when(flags.enabledCountriesEnabled, { label: 'Enabled Countries', to: '/countries' }),
        ...when(flags.channelsCoverageEnabled, { label: 'Coverage', to: '/coverage' }),
        ...when(hasBalance(partner), { label: 'Balance', to: '/balance' }),
      ],
    },
    {
      title: 'Developers tools',
      items: [
        ...when(flags.apiKeysManagementEnabled && !partner.isCommercial && role === 'admin', { label: 'API Keys', to: '/api-keys' }),
        ...when(flags.webhooksManagementEnabled, { label: 'Webhooks', to: '/webhooks' }),
      ],
    },
    {
      title: 'Your account',
      items: [
        ...when(flags.walletManagementEnabled && role === 'admin', { label: 'Wallet Management', to: '/wallets' }),
        ...when(flags.reportDownloadsEnabled, { label: 'Request Data Download', to: '/data-download' }),
        settings,
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/** A nav item is active when the current path starts with its link. */
export const isActive = (pathname: string, to: string) => pathname.startsWith(to);
