import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInfo } from '../../lib/build-info.ts';
import { setLanguage } from '../../lib/i18n.ts';
import { mockApi } from '../../testing/api-mock.ts';
import { accounts, profile, signIn } from '../../testing/factories.ts';
import { renderScreen } from '../../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';

describe('the signed-in frame in French', () => {
  afterEach(() => setLanguage('en'));

  it('names the navigation, its groups, the partner card, the user and the way out in French', async () => {
    await setLanguage('fr');
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } });
    renderScreen(<AppLayout />, { path: '/transactions' });

    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(await within(nav).findByRole('link', { name: 'Transactions' })).toBeTruthy();
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual([
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
