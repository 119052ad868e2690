import { createBrowserRouter, type RouteObject } from 'react-router';
import { Guarded, HomeRedirect } from './guarded.tsx';
import { PublicLayout } from './layout/public-layout.tsx';
import { NotFound } from './not-found.tsx';
import { RouteError } from './route-error.tsx';
import { ROUTES, type RouteMeta } from './routes.ts';

type Screen = () => React.JSX.Element;
type Loader = () => Promise<Record<string, unknown>>;

/** A route that loads its screen on demand (portal-core §2) behind the navigation guard. */
function screen(meta: RouteMeta, load: Loader, name: string): RouteObject {
  return {
    path: meta.path,
    element: <Guarded meta={meta} />,
    children: [{ index: true, lazy: async () => ({ Component: (await load())[name] as Screen }) }],
  };
}

const auth = {
  login: () => import('../features/auth/routes/login.tsx'),
  twoFactor: () => import('../features/auth/routes/two-factor.tsx'),
  resetPassword: () => import('../features/auth/routes/reset-password.tsx'),
  requested: () => import('../features/auth/routes/requested-password-reset.tsx'),
  changed: () => import('../features/auth/routes/password-changed.tsx'),
  inactive: () => import('../features/auth/routes/account-inactive.tsx'),
};
const about = () => import('../features/about/routes/about.tsx');
const balance = () => import('../features/balance/routes/balance.tsx');
const transactions = () => import('../features/transactions/routes/transactions.tsx');
const trades = () => import('../features/transactions/routes/trades.tsx');
const reports = () => import('../features/reports/routes/data-download.tsx');
const settings = () => import('../features/settings/routes/settings.tsx');
const apiKeys = () => import('../features/api-keys/routes/api-keys.tsx');
const webhooks = () => import('../features/webhooks/routes/webhooks.tsx');
const wallets = () => import('../features/wallets/routes/wallets.tsx');
const fiatWallets = () => import('../features/fiat-wallets/routes/fiat-wallets.tsx');
const fiatWallet = () => import('../features/transactions/routes/fiat-wallet.tsx');
const team = () => import('../features/team/routes/team.tsx');
const countries = () => import('../features/countries/routes/countries.tsx');
const coverage = () => import('../features/coverage/routes/coverage.tsx');
const initiatePayment = () => import('../features/payments/routes/initiate-payment.tsx');

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [
          screen(ROUTES.login, auth.login, 'LoginScreen'),
          screen(ROUTES.twoFactor, auth.twoFactor, 'TwoFactorScreen'),
          screen(ROUTES.resetPassword, auth.resetPassword, 'ResetPasswordScreen'),
          screen(ROUTES.requestedPasswordReset, auth.requested, 'RequestedPasswordResetScreen'),
          screen(ROUTES.passwordChanged, auth.changed, 'PasswordChangedScreen'),
          screen(ROUTES.accountInactive, auth.inactive, 'AccountInactiveScreen'),
          { path: '*', Component: NotFound },
        ],
      },
      {
        element: <Guarded meta={ROUTES.home} />,
        children: [
          {
            // the signed-in frame loads on demand too: the sign-in page does not carry it
            lazy: async () => ({ Component: (await import('./layout/app-layout.tsx')).AppLayout }),
            children: [
              { index: true, path: '/', Component: HomeRedirect },
              screen(ROUTES.about, about, 'AboutScreen'),
              screen(ROUTES.transactions, transactions, 'TransactionsScreen'),
              screen(ROUTES.balance, balance, 'BalanceScreen'),
              screen(ROUTES.fiatWallet, fiatWallet, 'FiatWalletScreen'),
              screen(ROUTES.fiatWallets, fiatWallets, 'FiatWalletsScreen'),
              screen(ROUTES.coverage, coverage, 'CoverageScreen'),
              screen(ROUTES.apiKeys, apiKeys, 'ApiKeysScreen'),
              screen(ROUTES.settings, settings, 'SettingsScreen'),
              screen(ROUTES.team, team, 'TeamScreen'),
              screen(ROUTES.wallets, wallets, 'WalletsScreen'),
              screen(ROUTES.countries, countries, 'CountriesScreen'),
              screen(ROUTES.trades, trades, 'TradesScreen'),
              screen(ROUTES.payments, trades, 'PaymentsScreen'),
              screen(ROUTES.initiatePayment, initiatePayment, 'InitiatePaymentScreen'),
              screen(ROUTES.webhooks, webhooks, 'WebhooksScreen'),
              screen(ROUTES.dataDownload, reports, 'DataDownloadScreen'),
            ],
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
