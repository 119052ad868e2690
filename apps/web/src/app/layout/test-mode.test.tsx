import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetLanguage } from '../../lib/i18n.ts';
import { TEST_MODE_KEY, setTestMode, useTestMode } from '../../lib/test-mode.ts';
import { mockApi } from '../../testing/api-mock.ts';
import { accounts, profile, signIn } from '../../testing/factories.ts';
import { inFrench } from '../../testing/french.ts';
import { renderScreen } from '../../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';

const BANNER = 'Viewing test data: nothing here moves real money.';

function serve(partner = profile()) {
  return mockApi({ 'GET partner/profile': { body: partner }, 'GET partner/accounts': { body: accounts() } });
}

describe('the test view in the signed-in frame', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn('admin');
  });

  it('is off on a live load: no banner, and the switch beside the user says so', async () => {
    serve();
    renderScreen(<AppLayout />, { path: '/transactions' });
    const toggle = await screen.findByRole('switch', { name: 'Viewing test data' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    // in the side bar, with the user, below the navigation
    const aside = screen.getByRole('complementary', { name: 'Partner and navigation' });
    expect(aside.contains(toggle)).toBe(true);
    expect(screen.getByRole('navigation', { name: 'Main' }).compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByTestId('test-mode-banner')).toBeNull();
    expect(screen.queryByText(BANNER)).toBeNull();
  });

  it('turns on with the switch (or a click on its words): the banner shows at the top of the page; "Leave test data" turns it off', async () => {
    serve();
    const { user } = renderScreen(<AppLayout />, { path: '/transactions' });
    const toggle = await screen.findByRole('switch', { name: 'Viewing test data' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(localStorage.getItem(TEST_MODE_KEY)).toBe('on');
    const banner = screen.getByTestId('test-mode-banner');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.textContent).toContain(BANNER);
    // the first thing of the page's main area, above the screen
    expect(screen.getByRole('main').firstElementChild).toBe(screen.getByTestId('test-mode-banner'));

    await user.click(within(screen.getByTestId('test-mode-banner')).getByRole('button', { name: 'Leave test data' }));
    expect(screen.queryByTestId('test-mode-banner')).toBeNull();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(localStorage.getItem(TEST_MODE_KEY)).toBeNull();
    // the button went with the strip: focus is on the page, not lost
    expect(document.activeElement).toBe(screen.getByRole('main'));

    // the words are the switch's label; the keyboard presses it as any button
    await user.click(screen.getByText('Viewing test data'));
    expect(useTestMode.getState().on).toBe(true);
    toggle.focus();
    await user.keyboard(' ');
    expect(useTestMode.getState().on).toBe(false);
    await user.keyboard('{Enter}');
    expect(useTestMode.getState().on).toBe(true);
  });

  it('draws the banner in the first render of a reload in the test view, before the partner arrives', () => {
    setTestMode(true);
    mockApi({ 'GET partner/profile': () => new Promise(() => undefined) });
    renderScreen(<AppLayout />, { path: '/transactions' });
    expect(screen.getByTestId('test-mode-banner').textContent).toContain(BANNER);
    expect(screen.getByTestId('page-skeleton')).toBeTruthy();
  });

  it('has no switch for a partner that is not B2B, and leaves a test view such a partner cannot have', async () => {
    setTestMode(true);
    serve(profile({ isB2B: false, isCommercial: true, productTypes: ['COMMERCIAL'] }));
    renderScreen(<AppLayout />, { path: '/transactions' });
    await screen.findByTestId('partner-name');
    expect(screen.queryByRole('switch', { name: 'Viewing test data' })).toBeNull();
    await expect.poll(() => useTestMode.getState().on).toBe(false);
    expect(screen.queryByTestId('test-mode-banner')).toBeNull();
  });

  it('draws the screen anew at a switch: nothing it held on screen is the other side', async () => {
    serve();
    let mounts = 0;
    function Screen() {
      const [mount] = useState(() => ++mounts);
      return <p data-testid="the-screen">{`mount ${mount}`}</p>;
    }
    const router = createMemoryRouter([{ element: <AppLayout />, children: [{ path: '/transactions', element: <Screen /> }] }], {
      initialEntries: ['/transactions'],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('the-screen')).textContent).toBe('mount 1');
    await userEvent.click(await screen.findByRole('switch', { name: 'Viewing test data' }));
    expect(screen.getByTestId('the-screen').textContent).toBe('mount 2');
  });
});

describe('the test view in French', () => {
  inFrench('admin');
  afterEach(() => forgetLanguage());

  it('names the switch, the banner and its button in French', async () => {
    localStorage.clear();
    setTestMode(true);
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts() },
      'GET user/preferences': { body: { timeZone: null, language: 'fr', startScreen: 'transactions' } },
    });
    renderScreen(<AppLayout />, { path: '/transactions' });
    expect((await screen.findByRole('switch', { name: 'Données de test affichées' })).getAttribute('aria-checked')).toBe('true');
    const banner = screen.getByTestId('test-mode-banner');
    expect(banner.textContent).toContain('Données de test affichées\u00a0: rien ici ne déplace d’argent réel.');
    expect(within(banner).getByRole('button', { name: 'Quitter les données de test' })).toBeTruthy();
  });
});
