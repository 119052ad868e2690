import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { accounts, payments, profile, searchReply } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TransactionsScreen } from './transactions.tsx';
import { inFrench } from '../../../testing/french.ts';

/** Ten payments, the second failed; the server counted no further than 10,000 (an "at least" total). */
const ROWS = payments(10).map((r, i) => (i === 1 ? { ...r, status: 'failed' } : r));
const base = { 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } };
const bodyRows = () => screen.getAllByRole('row').slice(1);
/** A cell's text without the column name a phone's card shows above it. */
const cellText = (cell: HTMLElement) => {
  const copy = cell.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[data-cell-label]').forEach((l) => l.remove());
  return copy.textContent;
};
// French typesetting: a narrow no-break space between digit groups, a no-break space before the currency and colons
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('transactions screen in French', () => {
  inFrench('view');

  it('writes the tabs, headers, statuses, amounts, dates, pager and filters in French', async () => {
    mockApi({ ...base, 'POST transactions/search': { body: searchReply(ROWS, 10_000, 'gte') } });
    const { user } = renderScreen(<TransactionsScreen />, { path: '/transactions', url: '/transactions' });
    await waitFor(() => expect(screen.getByTestId('page-summary').textContent).toBe(`1–10 sur au moins 10${NNBSP}000`));

    expect(screen.getByRole('heading', { name: 'Transactions' })).toBeTruthy();
    expect(screen.getByText('Vos paiements, encaissements, règlements et frais.')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Paiements', 'Encaissements', 'Règlements', 'Frais', 'Tout']);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'Date', 'Pays', 'Montant', 'Statut', 'Moyen de paiement', 'Voir']);
    expect(within(bodyRows()[0]!).getAllByRole('cell').map(cellText).slice(1, 6)).toEqual([
      '20 nov. 2026 12:00 UTC',
      'NG',
      `1${NNBSP}000,50${NBSP}NGN0,65${NBSP}USD · 1 USD = 1${NNBSP}550,00 NGN`,
      'Terminé',
      'Banque',
    ]);
    expect(cellText(within(bodyRows()[1]!).getAllByRole('cell')[4]!)).toBe('Échoué');
    expect(screen.getByRole('button', { name: 'Précédent' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exporter en CSV' })).toBeTruthy();
    expect(screen.getByLabelText('Rechercher par ID').getAttribute('placeholder')).toBe(`ex.${NBSP}: 3f2a9c1e`);
    expect(screen.getByLabelText('Du (UTC)')).toBeTruthy();

    // the status filter: its groups and statuses in French
    await user.click(screen.getByRole('button', { name: `Statut${NBSP}: Tous` }));
    expect(screen.getAllByRole('group').map((g) => g.querySelector('legend')!.textContent)).toEqual([
      'Ouverts',
      'En cours',
      'Réussis',
      'Échoués',
      'Remboursés',
      'Annulés ou expirés',
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'En attente KYC' }));
    await user.click(screen.getByRole('checkbox', { name: 'Refusé' }));
    expect(await screen.findByRole('button', { name: `Statut${NBSP}: 2 statuts` })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Réinitialiser les filtres' })).toBeTruthy();

    // the details drawer: its sections and field names
    await user.click(screen.getByRole('button', { name: `Voir le détail de ${ROWS[0]!.id}` }));
    const drawer = await screen.findByRole('dialog', { name: 'Détails de la transaction' }, { timeout: 2500 });
    expect([...drawer.querySelectorAll('h3')].map((h) => h.textContent)).toEqual(['Résumé', 'Parties', 'Montants']);
    const value = (label: string) => drawer.querySelector(`[data-field="${label}"] dd`)?.textContent;
    expect(value('Statut')).toBe('Terminé');
    expect(value('Moyen de paiement')).toBe('Banque');
    expect(value('Montant')).toBe(`1${NNBSP}000,50${NBSP}NGN`);
  });

  it('says in French that there is nothing yet', async () => {
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([], 0) } });
    renderScreen(<TransactionsScreen />, { path: '/transactions', url: '/transactions' });
    expect((await screen.findByTestId('empty-noData')).textContent).toContain('Aucune transaction pour le moment');
  });
});
