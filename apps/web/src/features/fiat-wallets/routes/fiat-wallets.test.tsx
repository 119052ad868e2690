import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIAT_WALLET_MESSAGES, type FiatWallet, type UpdateFiatWalletRequest } from '@portal/contract/fiat-wallets';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { fiatWallets, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { FiatWalletsScreen } from './fiat-wallets.tsx';
import { inFrench } from '../../../testing/french.ts';

const renderWallets = () => renderScreen(<FiatWalletsScreen />, { path: '/balance/fiat-wallets' });
const switchOf = (name: string) => screen.getByRole<HTMLButtonElement>('switch', { name });
/** The wallet rows, once loaded (the skeleton shows list items too). */
const rowsShown = async () => within(await screen.findByRole('list', { name: 'Fiat wallets' })).getAllByRole('listitem');
const on = (name: string) => switchOf(name).getAttribute('aria-checked') === 'true';

/** The server as a store: PUT changes it, GET reads it; `fail` makes the next PUT fail. */
function walletServer() {
  let list: FiatWallet[] = fiatWallets().fiatWallets;
  const state = { fail: false };
  const api = mockApi({
    'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) },
    'GET partner/fiat-wallets': () => ({ body: { fiatWallets: list } }),
    'PUT partner/fiat-wallet': (call) => {
      if (state.fail) return apiError(500, 'InternalError', 'Something went wrong on our side.');
      const body = call.body as UpdateFiatWalletRequest;
      list = list.map((w) => (w.id === body.id ? { ...w, ...body } : w));
      return { body: { fiatWallet: list.find((w) => w.id === body.id) } };
    },
  });
  return { api, state };
}

describe('fiat wallets screen', () => {
  it('lists the wallets with currency, country and ledger balance, the default USD one first and always on', async () => {
    signIn('admin');
    walletServer();
    renderWallets();
    const rows = await rowsShown();
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['fiat-wallet-USD', 'fiat-wallet-NGN', 'fiat-wallet-KES']);
    const ngn = within(rows[1]!);
    expect(ngn.getByText('Nigerian Naira')).toBeTruthy();
    expect(ngn.getByText('Nigeria')).toBeTruthy();
    expect(ngn.getByText('NGN 12,500,000.00')).toBeTruthy();
    expect(within(rows[0]!).getByText('Default')).toBeTruthy();
    expect(switchOf('Payments for USD').disabled).toBe(true);
    expect(switchOf('Collections for USD').disabled).toBe(true);
    expect(on('Collections for KES')).toBe(false);
    expect(screen.getByText('The default USD wallet always takes payments and collections.', { exact: false })).toBeTruthy();
    expect(within(rows[2]!).getByRole('link', { name: 'Transactions of the KES wallet' }).getAttribute('href')).toBe('/balance/fiat-wallet/KES');
  });

  it('switches payments off: sends the change, then reloads the list', async () => {
    signIn('treasury');
    const { api } = walletServer();
    const { user } = renderWallets();
    await rowsShown();
    expect(on('Payments for NGN')).toBe(true);
    await user.click(switchOf('Payments for NGN'));
    await waitFor(() => expect(api.to('PUT partner/fiat-wallet').map((c) => c.body)).toEqual([{ id: 2, paymentEnabled: false }]));
    await waitFor(() => expect(api.to('GET partner/fiat-wallets')).toHaveLength(2));
    await waitFor(() => expect(on('Payments for NGN')).toBe(false));
    expect(on('Collections for NGN')).toBe(true);
    expect(useToasts.getState().toast.message).toBe('Payments turned off for the NGN wallet');
    await user.click(switchOf('Collections for KES'));
    await waitFor(() => expect(api.to('PUT partner/fiat-wallet').at(-1)?.body).toEqual({ id: 3, collectionEnabled: true }));
    await waitFor(() => expect(on('Collections for KES')).toBe(true));
  });

  it('shows the spec message on a failed change and puts the switch back', async () => {
    signIn('admin');
    const { api, state } = walletServer();
    state.fail = true;
    const { user } = renderWallets();
    await rowsShown();
    await user.click(switchOf('Collections for NGN'));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(FIAT_WALLET_MESSAGES.fetchFailed('Something went wrong on our side.')));
    await waitFor(() => expect(api.to('GET partner/fiat-wallets')).toHaveLength(2));
    await waitFor(() => expect(on('Collections for NGN')).toBe(true));
  });

  it('is read-only for view users', async () => {
    signIn('view');
    const { api } = walletServer();
    renderWallets();
    await rowsShown();
    expect(screen.getByText('Only admin and treasury users can switch payments and collections.')).toBeTruthy();
    expect(screen.getAllByRole('switch').every((s) => (s as HTMLButtonElement).disabled)).toBe(true);
    expect(api.to('PUT partner/fiat-wallet')).toEqual([]);
  });

  it('says when the partner has no fiat wallets, without asking for them', async () => {
    signIn('admin');
    const api = mockApi({ 'GET partner/profile': { body: profile({ fiatWalletsEnabled: false }) } });
    renderWallets();
    await screen.findByText('Fiat wallets are not enabled for your account');
    expect(api.to('GET partner/fiat-wallets')).toEqual([]);
  });

  it('shows the spec message when the list cannot be loaded', async () => {
    signIn('admin');
    mockApi({
      'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) },
      'GET partner/fiat-wallets': apiError(500, 'InternalError', 'database unavailable'),
    });
    renderWallets();
    await screen.findByText(FIAT_WALLET_MESSAGES.fetchFailed('database unavailable'));
  });
});

describe('fiat wallets screen in French', () => {
  inFrench('admin');

  it('writes the list, its balances and its switches in French, and says a change in French', async () => {
    const { api } = walletServer();
    const { user } = renderScreen(<FiatWalletsScreen />, { path: '/balance/fiat-wallets' });
    const rows = within(await screen.findByRole('list', { name: 'Portefeuilles en monnaie fiat' })).getAllByRole('listitem');
    expect(screen.getByRole('heading', { name: 'Portefeuilles en monnaie fiat' })).toBeTruthy();
    const ngn = within(rows[1]!);
    expect(ngn.getAllByText('Solde disponible')).toHaveLength(1);
    // a narrow no-break space between digit groups, a no-break space before the currency
    expect(rows[1]!.textContent).toContain('Solde disponible12\u202f500\u202f000,00\u00a0NGN');
    expect(within(rows[0]!).getByText('Par défaut')).toBeTruthy();
    expect(screen.getByText('Le portefeuille USD par défaut accepte toujours les paiements et les encaissements.', { exact: false })).toBeTruthy();
    expect(ngn.getByRole('link', { name: 'Transactions du portefeuille NGN' })).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Paiements pour NGN' }));
    await waitFor(() => expect(api.to('PUT partner/fiat-wallet').map((c) => c.body)).toEqual([{ id: 2, paymentEnabled: false }]));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Paiements désactivés pour le portefeuille NGN'));
  });
});
