import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { PublicLayout } from './layout/public-layout.tsx';
import { NotFound } from './not-found.tsx';
import { RouteError } from './route-error.tsx';
import { ROUTES } from './routes.ts';

const placeholder = (name: string) => async () => {
  const screens = (await import('../features/placeholder/screens.tsx')) as unknown as Record<string, () => React.JSX.Element>;
  return { Component: screens[name] };
};

const auth = (name: string) => async () => {
  const mod = (await import(`../features/auth/routes/login.tsx`)) as unknown as Record<string, () => React.JSX.Element>;
  return { Component: mod[name] };
};

/** Every screen loads on demand (portal-core §2). */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [
          { path: ROUTES.login.path, lazy: auth('LoginScreen') },
          { path: ROUTES.about.path, lazy: placeholder('AboutScreen') },
          { path: '*', Component: NotFound },
        ],
      },
      {
        path: ROUTES.home.path,
        Component: AppLayout,
        children: [
          { index: true, element: <Navigate to={ROUTES.transactions.path} replace /> },
          { path: ROUTES.transactions.path, lazy: placeholder('TransactionsScreen') },
          { path: ROUTES.balance.path, lazy: placeholder('BalanceScreen') },
          { path: ROUTES.fiatWallet.path, lazy: placeholder('FiatWalletScreen') },
          { path: ROUTES.fiatWallets.path, lazy: placeholder('FiatWalletsScreen') },
          { path: ROUTES.coverage.path, lazy: placeholder('CoverageScreen') },
          { path: ROUTES.apiKeys.path, lazy: placeholder('ApiKeysScreen') },
          { path: ROUTES.settings.path, lazy: placeholder('SettingsScreen') },
          { path: ROUTES.wallets.path, lazy: placeholder('WalletsScreen') },
          { path: ROUTES.countries.path, lazy: placeholder('CountriesScreen') },
          { path: ROUTES.trades.path, lazy: placeholder('TradesScreen') },
          { path: ROUTES.payments.path, lazy: placeholder('PaymentsScreen') },
          { path: ROUTES.webhooks.path, lazy: placeholder('WebhooksScreen') },
          { path: ROUTES.dataDownload.path, lazy: placeholder('DataDownloadScreen') },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
