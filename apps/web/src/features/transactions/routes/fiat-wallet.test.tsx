import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchRequest } from '@portal/contract/transactions';
import { mockApi } from '../../../testing/api-mock.ts';
import { fiatWallets, profile, searchReply, settlement, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { FiatWalletScreen } from './fiat-wallet.tsx';

const renderWallet = (currency: string, query = '') =>
  renderScreen(<FiatWalletScreen />, { path: '/balance/fiat-wallet/:currency', url: `/balance/fiat-wallet/${currency}${query}` });

describe('fiat wallet screen', () => {
  it("shows the wallet's balance and switches, and its transactions only, without a wallet selector", async () => {
    signIn('view');
    const api = mockApi({
      'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) },
      'GET partner/fiat-wallets': { body: fiatWallets() },
      'POST transactions/search': { body: searchReply([settlement({ fiatWallet: 'KES', fiatAmount: '1500' })], 1, 'eq', 'settlements') },
    });
    const { user } = renderWallet('KES', '?tab=3');
    await screen.findByRole('heading', { name: 'KES wallet' });
    await waitFor(() => expect(screen.getByTestId('fiat-wallet-balance').textContent).toBe('KES 850,000.00'));
    expect(screen.getByText('Kenyan Shilling · Kenya')).toBeTruthy();
    expect(screen.getByText('Payments on')).toBeTruthy();
    expect(screen.getByText('Collections off')).toBeTruthy();
    await screen.findByText('KES 1,500.00');
    expect(api.to('POST transactions/search').map((c) => (c.body as SearchRequest).fiatWallet)).toEqual(['KES']);
    expect((api.to('POST transactions/search')[0]!.body as SearchRequest).table).toBe('settlements');
    expect(screen.queryByRole('button', { name: /^Wallet:/ })).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('Wallet');
    // another tab keeps the wallet
    await user.click(screen.getByRole('tab', { name: 'Payments' }));
    await waitFor(() => expect(api.to('POST transactions/search').at(-1)?.body).toMatchObject({ table: 'payments', fiatWallet: 'KES' }));
    expect(screen.getByRole('link', { name: 'Fiat wallets' }).getAttribute('href')).toBe('/balance/fiat-wallets');
  });

  it('says when the partner has no wallet in that currency', async () => {
    signIn('admin');
    const api = mockApi({ 'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) }, 'GET partner/fiat-wallets': { body: fiatWallets() } });
    renderWallet('ghs');
    await screen.findByText('You have no GHS wallet');
    expect(api.to('POST transactions/search')).toEqual([]);
  });
});
