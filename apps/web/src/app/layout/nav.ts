import type { FeatureFlags, Role } from '@portal/contract/domain';
import type { Partner as PartnerRecord } from '@portal/contract/partner';
import { hasBalance } from '../../lib/partner/access.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import type { frameMessages } from '../../lib/frame-messages.ts';

/** A text of the frame's catalogue: the navigation holds keys, translated where the layout draws them. */
type FrameKey = MessageKey<typeof frameMessages.en>;
export type NavItem = { label: FrameKey; to: string };
export type NavGroup = { title: FrameKey; items: NavItem[] };
type Partner = Pick<PartnerRecord, 'isB2B' | 'isCommercial' | 'isWhitelistedCommercial'>;

/** The side navigation of portal-core §2 for the partner's kind, flags and the user's role. Log out is added by the layout. */
export function navGroups(partner: Partner, flags: FeatureFlags, role: Role): NavGroup[] {
  const when = (ok: boolean, item: NavItem) => (ok ? [item] : []);
  const settings: NavItem = { label: 'nav.settings', to: '/settings' };
  if (partner.isCommercial) {
    return [
      {
        title: 'nav.group.business',
        items: [
          { label: 'nav.trades', to: '/trades' },
          ...when(partner.isWhitelistedCommercial && flags.paymentsViewEnabled, { label: 'nav.payments', to: '/payments' }),
          ...when(hasBalance(partner), { label: 'nav.balance', to: '/balance' }),
          ...when(flags.walletManagementEnabled, { label: 'nav.wallets', to: '/wallets' }),
        ],
      },
      { title: 'nav.group.account', items: [settings] },
    ];
  }
  const groups: NavGroup[] = [
    {
      title: 'nav.group.business',
      items: [
        { label: 'nav.transactions', to: '/transactions' },
        ...when(flags.enabledCountriesEnabled, { label: 'nav.countries', to: '/countries' }),
        ...when(flags.channelsCoverageEnabled, { label: 'nav.coverage', to: '/coverage' }),
        ...when(hasBalance(partner), { label: 'nav.balance', to: '/balance' }),
      ],
    },
    {
      title: 'nav.group.developers',
      items: [
        ...when(flags.apiKeysManagementEnabled && !partner.isCommercial && role === 'admin', { label: 'nav.apiKeys', to: '/api-keys' }),
        ...when(flags.webhooksManagementEnabled, { label: 'nav.webhooks', to: '/webhooks' }),
      ],
    },
    {
      title: 'nav.group.account',
      items: [
        ...when(flags.walletManagementEnabled && role === 'admin', { label: 'nav.wallets', to: '/wallets' }),
        ...when(flags.reportDownloadsEnabled, { label: 'nav.dataDownload', to: '/data-download' }),
        settings,
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/** A nav item is active when the current path starts with its link. */
export const isActive = (pathname: string, to: string) => pathname.startsWith(to);
