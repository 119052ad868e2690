import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router';
import { installAuthHooks, setNavigator } from '../lib/session/session.ts';

/** Where the screen navigated to: every other path renders this. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{`${pathname}${search}`}</p>;
}

/**
 * Renders one screen at its route with the providers of the app (no retries, so that a failure shows at once),
 * and a probe at every other path that shows where the screen navigated. The session's hooks are installed as
 * at start-up: the token goes with each call, a lost session navigates to /login.
 */
export function renderScreen(element: ReactNode, { path = '/', url = path }: { path?: string; url?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [url] },
  );
  setNavigator((to) => void router.navigate(to, { replace: true }));
  installAuthHooks();
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, user, router, queryClient };
}
