import { ROUTES, type RouteMeta } from './routes.ts';

/**
 * Which module (a path under src/) draws each screen, and the name it exports. The router loads them on demand
 * (router.tsx); the build lists, for each route, the files that its modules need (`route-preloads.json`, made by
 * apps/web/vite.config.ts), and the server names those files in the page it sends for that route, so the browser
 * fetches them beside the entry instead of after it. Plain data: the build reads it too.
 */
export type Screen = { meta: RouteMeta; module: string; name: string };

/** The signed-in frame, loaded on demand as well: the sign-in page does not carry it. */
export const APP_LAYOUT = 'app/layout/app-layout.tsx';

/** The screens before sign-in, inside the public frame. */
export const PUBLIC_SCREENS: Screen[] = [
  { meta: ROUTES.login, module: 'features/auth/routes/login.tsx', name: 'LoginScreen' },
  { meta: ROUTES.twoFactor, module: 'features/auth/routes/two-factor.tsx', name: 'TwoFactorScreen' },
  { meta: ROUTES.resetPassword, module: 'features/auth/routes/reset-password.tsx', name: 'ResetPasswordScreen' },
  { meta: ROUTES.acceptInvitation, module: 'features/auth/routes/accept-invitation.tsx', name: 'AcceptInvitationScreen' },
  { meta: ROUTES.requestedPasswordReset, module: 'features/auth/routes/requested-password-reset.tsx', name: 'RequestedPasswordResetScreen' },
  { meta: ROUTES.passwordChanged, module: 'features/auth/routes/password-changed.tsx', name: 'PasswordChangedScreen' },
  { meta: ROUTES.accountInactive, module: 'features/auth/routes/account-inactive.tsx', name: 'AccountInactiveScreen' },
];

/** The signed-in screens, inside the frame (APP_LAYOUT). */
export const APP_SCREENS: Screen[] = [
  { meta: ROUTES.about, module: 'features/about/routes/about.tsx', name: 'AboutScreen' },
  { meta: ROUTES.overview, module: 'features/overview/routes/overview.tsx', name: 'OverviewScreen' },
  { meta: ROUTES.transactions, module: 'features/transactions/routes/transactions.tsx', name: 'TransactionsScreen' },
  { meta: ROUTES.balance, module: 'features/balance/routes/balance.tsx', name: 'BalanceScreen' },
  { meta: ROUTES.fiatWallet, module: 'features/transactions/routes/fiat-wallet.tsx', name: 'FiatWalletScreen' },
  { meta: ROUTES.fiatWallets, module: 'features/fiat-wallets/routes/fiat-wallets.tsx', name: 'FiatWalletsScreen' },
  { meta: ROUTES.coverage, module: 'features/coverage/routes/coverage.tsx', name: 'CoverageScreen' },
  { meta: ROUTES.apiKeys, module: 'features/api-keys/routes/api-keys.tsx', name: 'ApiKeysScreen' },
  { meta: ROUTES.settings, module: 'features/settings/routes/settings.tsx', name: 'SettingsScreen' },
  { meta: ROUTES.team, module: 'features/team/routes/team.tsx', name: 'TeamScreen' },
  { meta: ROUTES.security, module: 'features/security/routes/security.tsx', name: 'SecurityScreen' },
  { meta: ROUTES.wallets, module: 'features/wallets/routes/wallets.tsx', name: 'WalletsScreen' },
  { meta: ROUTES.countries, module: 'features/countries/routes/countries.tsx', name: 'CountriesScreen' },
  { meta: ROUTES.trades, module: 'features/transactions/routes/trades.tsx', name: 'TradesScreen' },
  { meta: ROUTES.payments, module: 'features/transactions/routes/trades.tsx', name: 'PaymentsScreen' },
  { meta: ROUTES.initiatePayment, module: 'features/payments/routes/initiate-payment.tsx', name: 'InitiatePaymentScreen' },
  { meta: ROUTES.webhooks, module: 'features/webhooks/routes/webhooks.tsx', name: 'WebhooksScreen' },
  { meta: ROUTES.dataDownload, module: 'features/reports/routes/data-download.tsx', name: 'DataDownloadScreen' },
];
