import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { profile, settlementWallet } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { WalletsScreen } from './wallets.tsx';
import { inFrench } from '../../../testing/french.ts';

describe('wallets screen in French', () => {
  inFrench('admin');

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
