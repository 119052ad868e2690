import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { useEffect, useLayoutEffect } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInfo } from '../../lib/build-info.ts';
import { forgetLanguage } from '../../lib/i18n.ts';
import { mockApi } from '../../testing/api-mock.ts';
import { accounts, profile, signIn } from '../../testing/factories.ts';
import { renderScreen } from '../../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';
import { inFrench } from '../../testing/french.ts';

describe('the signed-in frame in French', () => {
  inFrench('admin');
  // the saved language is kept for the next visit: the next tests start with none
  afterEach(() => forgetLanguage());

  it('names the navigation, its groups, the partner card, the user and the way out in French', async () => {
    // the user's saved language is French (none saved would put the browser's, English here, in force)
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts() },
      'GET user/preferences': { body: { timeZone: null, language: 'fr', startScreen: 'transactions' } },
    });
    renderScreen(<AppLayout />, { path: '/transactions' });

    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(await within(nav).findByRole('link', { name: 'Transactions' })).toBeTruthy();
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual([
      'Vue d’ensemble',
      'Transactions',
      'Pays activés',
      'Couverture',
      'Solde',
      'Clés API',
      'Webhooks',
      'Gestion des portefeuilles',
      'Téléchargement de données',
      'Paramètres',
    ]);
    for (const group of ['Votre activité', 'Outils pour développeurs', 'Votre compte']) expect(within(nav).getByText(group)).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Se déconnecter' })).toBeTruthy();

    const aside = screen.getByRole('complementary', { name: 'Partenaire et navigation' });
    expect(within(aside).getByRole('button', { name: 'Ouvrir le menu' })).toBeTruthy();
    expect(within(aside).getByRole('button', { name: 'Copier\u00a0: ID partenaire' })).toBeTruthy();
    expect(within(aside).getByText('admin@acme.test · administrateur')).toBeTruthy();
    expect(within(aside).getByRole('link', { name: `À propos · version ${buildInfo.version}` })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Aller au contenu principal' })).toBeTruthy();
  });
});

describe('the signed-in frame at start', () => {
  it("mounts the screen after its own first commit, so that the screen's effects run apart from the frame's", async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } });
    const seen: string[] = [];
    let screenAtFirstCommit: Element | null | undefined;
    // beside the frame: its layout effect runs in the frame's first commit, its effect with the frame's effects
    function FrameProbe() {
      useLayoutEffect(() => {
        screenAtFirstCommit = document.querySelector('[data-testid="the-screen"]');
      }, []);
      useEffect(() => void seen.push('frame'), []);
      return null;
    }
    function Screen() {
      useEffect(() => void seen.push('screen'), []);
      return <p data-testid="the-screen">the screen</p>;
    }
    const router = createMemoryRouter(
      [
        {
          element: (
            <>
              <AppLayout />
              <FrameProbe />
            </>
          ),
          children: [{ path: '/transactions', element: <Screen /> }],
        },
      ],
      { initialEntries: ['/transactions'] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );

    // the first commit has the frame and the page's skeleton, not the screen
    expect(screenAtFirstCommit).toBeNull();
    expect(screen.getByTestId('page-skeleton')).toBeTruthy();
    // the screen comes right after, and shows once the partner has arrived
    expect(await screen.findByText('the screen')).toBeTruthy();
    await screen.findByRole('link', { name: 'Transactions' });
    expect(screen.queryByTestId('page-skeleton')).toBeNull();
    // mounted with the frame, the screen's effects would have run first (a child's before its parent's sibling's)
    expect(seen).toEqual(['frame', 'screen']);
  });
});

describe('the side navigation icons', () => {
  it('draws the icon of each item (transaction-data §2), one of its own per item, beside the legal link and the way out', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } });
    renderScreen(<AppLayout />, { path: '/transactions' });

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: 'Transactions' });
    const drawn = within(nav)
      .getAllByRole('link')
      .map((a) => `${a.textContent}: ${a.querySelector('svg[aria-hidden="true"]')?.getAttribute('data-icon') ?? 'none'}`);
    expect(drawn).toEqual([
      'Overview: overview',
      'Transactions: transactions',
      'Enabled Countries: countries',
      'Coverage: coverage',
      'Balance: balance',
      'API Keys: keys',
      'Webhooks: webhooks',
      'Wallet Management: wallet',
      'Request Data Download: dataDownload',
      'Settings: settings',
    ]);
    // each icon is a drawing of its own
    const shapes = within(nav)
      .getAllByRole('link')
      .map((a) => a.querySelector('svg')?.innerHTML);
    expect(new Set(shapes).size).toBe(shapes.length);
    expect(within(nav).getByRole('button', { name: 'Log out' }).querySelector('svg')).toBeTruthy();
    const about = screen.getByRole('link', { name: `About · version ${buildInfo.version}` });
    expect(about.querySelector('svg')?.getAttribute('data-icon')).toBe('legal');
  });
});
