import { can } from '@portal/contract/permissions';
import type { FeatureFlags, Role } from '@portal/contract/domain';
import type { Partner as PartnerRecord } from '@portal/contract/partner';
import { hasBalance } from '../../lib/partner/access.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import type { frameMessages } from '../../lib/frame-messages.ts';

/** A text of the frame's catalogue: the navigation holds keys, translated where the layout draws them. */
type FrameKey = MessageKey<typeof frameMessages.en>;
/** The spec's sidebar icons (transaction-data §2), by what they stand for; the layout draws each. */
export type NavIcon =
  'overview' | 'transactions' | 'countries' | 'coverage' | 'balance' | 'keys' | 'webhooks' | 'wallet' | 'dataDownload' | 'settings' | 'trades' | 'payments';
export type NavItem = { label: FrameKey; to: string; icon: NavIcon };
export type NavGroup = { title: FrameKey; items: NavItem[] };
type Partner = Pick<PartnerRecord, 'isB2B' | 'isCommercial' | 'isWhitelistedCommercial'>;

/** The side navigation of portal-core §2 for the partner's kind, flags and the user's role. Log out is added by the layout. */
export function navGroups(partner: Partner, flags: FeatureFlags, role: Role): NavGroup[] {
  const when = (ok: boolean, item: NavItem) => (ok ? [item] : []);
  const settings: NavItem = { label: 'nav.settings', to: '/settings', icon: 'settings' };
  if (partner.isCommercial) {
    return [
      {
        title: 'nav.group.business',
        items: [
          { label: 'nav.trades', to: '/trades', icon: 'trades' },
          ...when(partner.isWhitelistedCommercial && flags.paymentsViewEnabled, { label: 'nav.payments', to: '/payments', icon: 'payments' }),
          ...when(hasBalance(partner), { label: 'nav.balance', to: '/balance', icon: 'balance' }),
          ...when(flags.walletManagementEnabled, { label: 'nav.wallets', to: '/wallets', icon: 'wallet' }),
        ],
      },
      { title: 'nav.group.account', items: [settings] },
    ];
  }
  const groups: NavGroup[] = [
    {
      title: 'nav.group.business',
      items: [
        // every role reads the tables, so every role reads their figures
        { label: 'nav.overview', to: '/overview', icon: 'overview' },
        { label: 'nav.transactions', to: '/transactions', icon: 'transactions' },
        ...when(flags.enabledCountriesEnabled, { label: 'nav.countries', to: '/countries', icon: 'countries' }),
        ...when(flags.channelsCoverageEnabled, { label: 'nav.coverage', to: '/coverage', icon: 'coverage' }),
        ...when(hasBalance(partner), { label: 'nav.balance', to: '/balance', icon: 'balance' }),
      ],
    },
    {
      title: 'nav.group.developers',
      items: [
        ...when(flags.apiKeysManagementEnabled && !partner.isCommercial && can(role, 'manageApiKeys'), { label: 'nav.apiKeys', to: '/api-keys', icon: 'keys' }),
        ...when(flags.webhooksManagementEnabled, { label: 'nav.webhooks', to: '/webhooks', icon: 'webhooks' }),
      ],
    },
    {
      title: 'nav.group.account',
      items: [
        ...when(flags.walletManagementEnabled && can(role, 'walletsInNav'), { label: 'nav.wallets', to: '/wallets', icon: 'wallet' }),
        ...when(flags.reportDownloadsEnabled, { label: 'nav.dataDownload', to: '/data-download', icon: 'dataDownload' }),
        settings,
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/** A nav item is active when the current path starts with its link. */
export const isActive = (pathname: string, to: string) => pathname.startsWith(to);
