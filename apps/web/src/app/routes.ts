import type { FeatureFlag } from '@portal/contract/domain';
import type { Action } from '@portal/contract/permissions';

/**
 * The route table of portal-core §2 with what the navigation guard needs to know of each route.
 * access: public (no sign-in), partial (signed in, not yet verified), protected (a verified user).
 * area: which partner kinds may open it (shared screens pass for every kind).
 * requires: the role rule of the guard that applies (portal-core §2 rules 2 and 3), and the action of the permission
 * table it reads.
 */
export type RouteAccess = 'public' | 'partial' | 'protected';
export type RouteArea = 'shared' | 'b2b' | 'trades' | 'payments';

export type RouteMeta = {
  path: string;
  access: RouteAccess;
  area: RouteArea;
  requires?: { rule: 'adminOnly' | 'walletRole'; action: Action };
  featureFlag?: FeatureFlag;
};

export const ROUTES = {
  home: { path: '/', access: 'protected', area: 'shared' },
  // not a shared screen (those are balance, settings and wallet management, portal-core §2 rule 4): the partner-type
  // rule applies, so only B2B partners open it and commercial partners go to /trades
  about: { path: '/about', access: 'protected', area: 'b2b' },
  passwordChanged: { path: '/password-changed', access: 'public', area: 'shared' },
  accountInactive: { path: '/account-inactive', access: 'public', area: 'shared' },
  login: { path: '/login', access: 'public', area: 'shared' },
  resetPassword: { path: '/reset-password', access: 'partial', area: 'shared' },
  // an invitation's one-time link (#token=…): it leads to /reset-password, the first of the invitee's steps
  acceptInvitation: { path: '/accept-invitation', access: 'public', area: 'shared' },
  twoFactor: { path: '/two-factor-authentication', access: 'partial', area: 'shared' },
  requestedPasswordReset: { path: '/requested-password-reset', access: 'public', area: 'shared' },
  // the figures of the partner's tables (payments, collections, settlements): B2B partners, every role (all read the tables)
  overview: { path: '/overview', access: 'protected', area: 'b2b' },
  transactions: { path: '/transactions', access: 'protected', area: 'b2b' },
  balance: { path: '/balance', access: 'protected', area: 'shared' },
  fiatWallet: { path: '/balance/fiat-wallet/:currency', access: 'protected', area: 'shared' },
  fiatWallets: { path: '/balance/fiat-wallets', access: 'protected', area: 'shared' },
  coverage: { path: '/coverage', access: 'protected', area: 'b2b', featureFlag: 'channelsCoverageEnabled' },
  apiKeys: {
    path: '/api-keys',
    access: 'protected',
    area: 'b2b',
    requires: { rule: 'adminOnly', action: 'manageApiKeys' },
    featureFlag: 'apiKeysManagementEnabled',
  },
  settings: { path: '/settings', access: 'protected', area: 'shared' },
  // the team (portal-core §6) lives under settings, so that Settings stays the active navigation item
  team: { path: '/settings/team', access: 'protected', area: 'shared' },
  // one's own sessions and the security history, under settings too
  security: { path: '/settings/security', access: 'protected', area: 'shared' },
  wallets: {
    path: '/wallets',
    access: 'protected',
    area: 'shared',
    requires: { rule: 'walletRole', action: 'openWallets' },
    featureFlag: 'walletManagementEnabled',
  },
  countries: { path: '/countries', access: 'protected', area: 'b2b', featureFlag: 'enabledCountriesEnabled' },
  trades: { path: '/trades', access: 'protected', area: 'trades' },
  payments: { path: '/payments/:id?', access: 'protected', area: 'payments', featureFlag: 'paymentsViewEnabled' },
  // a static segment ranks above /payments/:id?, so this is never read as a payment id
  initiatePayment: { path: '/payments/initiate', access: 'protected', area: 'payments', featureFlag: 'paymentsViewEnabled' },
  webhooks: { path: '/webhooks', access: 'protected', area: 'b2b' },
  dataDownload: { path: '/data-download', access: 'protected', area: 'b2b', featureFlag: 'reportDownloadsEnabled' },
} as const satisfies Record<string, RouteMeta>;

export type RouteName = keyof typeof ROUTES;
