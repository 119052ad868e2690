import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../components/ui/toast-store.ts';
import { mockApi } from '../testing/api-mock.ts';
import { profile, signIn } from '../testing/factories.ts';
import { renderScreen } from '../testing/render.tsx';
import { Guarded } from './guarded.tsx';
import { ROUTES, type RouteMeta } from './routes.ts';

/** The route's guard at its path, for a user of `role`: where it ended and the info toast it showed. */
async function open(meta: RouteMeta, path: string, role: 'admin' | 'view') {
  signIn(role);
  mockApi({ 'GET partner/profile': { body: profile() } });
  const view = renderScreen(<Guarded meta={meta} />, { path });
  await waitFor(() => expect(view.router.state.navigation.state).toBe('idle'));
  return view;
}

describe('a page the user may not open', () => {
  beforeEach(() => useToasts.getState().hideInfoToast());

  it('sends a view user away from an admin page and says why', async () => {
    await open(ROUTES.apiKeys, '/api-keys', 'view');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(useToasts.getState().info).toMatchObject({ show: true, message: 'Only admins can open that page, so you were brought here.' });
  });

  it('sends a view user away from the wallets page and names who may open it', async () => {
    await open(ROUTES.wallets, '/wallets', 'view');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(useToasts.getState().info.message).toBe('Only admins and treasury users can open that page, so you were brought here.');
  });

  it('opens the page for a user who may, and says nothing', async () => {
    const view = await open(ROUTES.apiKeys, '/api-keys', 'admin');
    // the partner arrives, the guard decides on it: the page stays
    await waitFor(() => expect(useToasts.getState().info.show || view.router.state.location.pathname).toBe('/api-keys'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(view.router.state.location.pathname).toBe('/api-keys');
    expect(useToasts.getState().info.show).toBe(false);
  });
});
