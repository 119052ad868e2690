import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { accounts, balanceOverview, ledgerMovement, profile } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { BalanceScreen } from './balance.tsx';
import { inFrench } from '../../../testing/french.ts';

// French groups digits with a narrow no-break space and puts a no-break space before the currency
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('balance screen in French', () => {
  inFrench('treasury');

  it('says the balances, the movements and the statement in French, amounts and dates written the French way', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '1234.56' }]) },
      'GET partner/balance': {
        body: balanceOverview('1234.56', {
          pending: { withdrawals: '1000.00', disbursements: '0.50', total: '1000.50' },
          recent: [ledgerMovement()],
        }),
      },
    });
    renderScreen(<BalanceScreen />, { path: '/balance' });
    expect((await screen.findByTestId('usd-available')).textContent).toBe(`1${NNBSP}234,56${NBSP}USD`);
    expect(screen.getByText('Solde disponible')).toBeTruthy();
    expect(screen.getByText('Compte USD')).toBeTruthy();
    expect(screen.getByTestId('usd-pending').textContent).toBe(`1${NNBSP}000,50${NBSP}USD`);
    expect(screen.getByText('Paiements (décaissements)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retirer' })).toBeTruthy();

    const list = screen.getByTestId('recent-movements');
    expect(screen.getByRole('heading', { name: 'Mouvements récents' })).toBeTruthy();
    expect(within(list).getByText('Retrait vers un portefeuille de règlement')).toBeTruthy();
    // read whole: the testing library's text matching folds no-break spaces into plain ones
    expect(list.textContent).toContain(`−1${NNBSP}234,56${NBSP}USD`);
    expect(list.textContent).toContain('23 nov. 2026, 10:00 UTC');
    expect(screen.getByRole('button', { name: 'Télécharger le PDF' })).toBeTruthy();
    expect(screen.getByText('Aucun compte dans une autre devise.')).toBeTruthy();
  });
});
