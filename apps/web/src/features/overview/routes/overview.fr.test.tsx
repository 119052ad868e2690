import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { analyticsReply, profile } from '../../../testing/factories.ts';
import { inFrench } from '../../../testing/french.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { OverviewScreen } from './overview.tsx';

// French groups digits with a narrow no-break space, and puts a no-break space before the currency and a narrow one before %
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('the Overview in French', () => {
  inFrench('view');

  it('says its controls, figures, charts and tables in French, amounts, shares, days and durations written the French way', async () => {
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/analytics': { body: analyticsReply() } });
    const { user } = renderScreen(<OverviewScreen />, { path: '/overview' });
    const collections = await screen.findByTestId('volume-collections');
    expect(screen.getByRole('heading', { name: 'Vue d’ensemble', level: 1 })).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: 'Période' })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((r) => r.textContent)).toEqual(['Aujourd’hui', '7 derniers jours', '30 derniers jours', 'Mois', 'Personnalisée']);
    for (const name of ['Volumes', 'Taux de réussite', 'Solde', 'Délai de traitement']) expect(screen.getByRole('heading', { name, level: 2 })).toBeTruthy();

    expect(within(collections).getByText('Encaissements')).toBeTruthy();
    expect(within(collections).getByTestId('volume-amount').textContent).toBe(`98${NNBSP}765,43${NBSP}USD`);
    expect(within(collections).getByTestId('volume-count').textContent).toBe(`1${NNBSP}234 aboutis`);
    expect(within(collections).getByTestId('volume-change').textContent).toBe(`En hausse de 23,5${NNBSP}%`);
    expect(collections.textContent).toContain(`contre 80${NNBSP}000,00${NBSP}USD avant`);
    expect(screen.getByTestId('overview-summary').textContent).toBe('1 – 3 nov. 2026, comparé à 29 – 31 oct. 2026. Montants en USD, jours en UTC.');
    expect(screen.getByTestId('success-rate').textContent).toBe(`92,1${NNBSP}%`);
    expect(screen.getByTestId('success-failed').textContent).toBe('110 échoués');
    expect(screen.getByRole('img', { name: /^Graphique linéaire des montants aboutis par jour/ })).toBeTruthy();

    await user.click(screen.getAllByText('Afficher sous forme de tableau')[0]!);
    const table = screen.getByRole('table', { name: 'Volumes dans le temps' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Jour', 'Encaissements', 'Paiements', 'Règlements']);
    expect(within(table).getAllByRole('row')[1]!.querySelector('td')!.textContent).toBe('1 nov. 2026');

    // the channels with the tables' French words, a failure without a reason told by its status, the corridors' durations
    const channels = within(screen.getByTestId('by-channel')).getAllByTestId('breakdown-row');
    expect(channels.map((r) => r.querySelector('td')!.textContent)).toEqual(['Momo', 'Banque']);
    expect(within(screen.getByTestId('by-operator')).getByText('Non enregistré')).toBeTruthy();
    expect(within(screen.getByTestId('failure-reasons')).getByText('Expiré')).toBeTruthy();
    const corridors = within(screen.getByTestId('completion')).getAllByTestId('completion-row');
    expect([...corridors[1]!.querySelectorAll('td')].map((td) => td.lastChild!.textContent)).toEqual([
      'Paiements',
      'Kenya (KE) · Banque',
      '20',
      '45 s',
      '1 j 3 h',
    ]);
    expect(screen.getByTestId('balance-pending-withdrawals').textContent).toBe(`1${NNBSP}200,50${NBSP}USD`);
  });

  it("refuses a too long custom period with the contract's words in French", async () => {
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/analytics': { body: analyticsReply() } });
    renderScreen(<OverviewScreen />, { path: '/overview', url: '/overview?period=custom&from=2025-01-01&to=2026-03-01' });
    expect((await screen.findByRole('alert')).textContent).toBe('Choisissez une période d’au plus 366 jours.');
    fireEvent.change(screen.getByLabelText('Au (UTC)'), { target: { value: '2024-12-01' } });
    expect((await screen.findByRole('alert')).textContent).toBe('La date de fin doit être identique ou postérieure à la date de début.');
  });
});
