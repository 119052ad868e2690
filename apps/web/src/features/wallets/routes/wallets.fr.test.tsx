import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n.ts';
import { mockApi } from '../../../testing/api-mock.ts';
import { profile, settlementWallet, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { WalletsScreen } from './wallets.tsx';

describe('wallets screen in French', () => {
  beforeEach(async () => {
    await setLanguage('fr');
    signIn('admin');
  });
  afterEach(() => setLanguage('en'));

  it('lists the wallets with their status, the reason of a denial and the dates in French', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/wallets': {
        body: {
          wallets: [settlementWallet({ status: 'denied', reason: 'There is a mistake in this wallet address', createdAt: '2026-11-20T10:00:00.000Z' })],
        },
      },
    });
    renderScreen(<WalletsScreen />, { path: '/wallets' });
    const [row] = within(await screen.findByRole('table')).getAllByTestId('wallet-row');
    expect(screen.getByRole('heading', { name: 'Gestion des portefeuilles', level: 1 })).toBeTruthy();
    expect(within(row!).getByText('Refusée')).toBeTruthy();
    expect(within(row!).getByText('Cette adresse de portefeuille comporte une erreur')).toBeTruthy();
    expect(row!.textContent).toContain('20 nov. 2026, 10:00 UTC');
    expect(screen.getByRole('columnheader', { name: 'Réseau' })).toBeTruthy();
    expect(screen.getByTestId('wallets-page-summary').textContent).toBe('1–1 sur 1');
    expect(screen.getAllByRole('button', { name: 'Ajouter une adresse de portefeuille' }).length).toBeGreaterThan(0);
  });
});
