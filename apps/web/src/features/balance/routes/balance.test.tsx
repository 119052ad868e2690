import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { accounts, balanceOverview, ledgerMovement, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { BalanceScreen } from './balance.tsx';

const renderBalance = () => renderScreen(<BalanceScreen />, { path: '/balance' });

describe('balance screen', () => {
  beforeEach(() => signIn('treasury'));

  it("shows the USD account's available amount, with the token, and the other accounts apart", async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': {
        body: accounts([
          { currency: 'NGN', available: '1500000.5' },
          { currency: 'USD', available: '25000.00' },
          { currency: 'KES', available: '0' },
        ]),
      },
    });
    renderBalance();
    expect((await screen.findByText('USD 25,000.00')).getAttribute('data-testid')).toBe('usd-available');
    const others = screen.getByRole('heading', { name: 'Other currency accounts' }).nextElementSibling as HTMLElement;
    expect(within(others).getByText('NGN').nextElementSibling?.textContent).toBe('1,500,000.50');
    expect(within(others).getByText('KES').nextElementSibling?.textContent).toBe('0.00');
    expect(within(others).queryByText('USD')).toBeNull();
    expect(api.to('GET partner/accounts')[0]!.headers.authorization).toBe('Bearer token-treasury');
  });

  it('shows 0.00 when the partner has no USD account, and says there are no others', async () => {
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts([]) } });
    renderBalance();
    expect((await screen.findByText('USD 0.00')).getAttribute('data-testid')).toBe('usd-available');
    expect(screen.getByText('No other currency accounts.')).toBeTruthy();
  });

  it('draws the cards and the movements together once both are in: the pending card never grows under the reader', async () => {
    let answer: (reply: { body: unknown }) => void = () => undefined;
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '25000.00' }]) },
      'GET partner/balance': () => new Promise((resolve) => (answer = resolve)),
    });
    renderBalance();
    await screen.findByRole('heading', { name: 'Balance', level: 1 });
    // the available amount is known, but it waits for the pending one
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('usd-available')).toBeNull();
    answer({
      body: { currency: 'USD', available: '25000.00', pending: { withdrawals: '0', disbursements: '0', total: '0' }, recent: [] },
    });
    expect((await screen.findByTestId('usd-available')).textContent).toBe('USD 25,000.00');
    expect(screen.getByTestId('usd-pending').textContent).toBe('USD 0.00');
  });

  it('shows why the accounts could not be read', async () => {
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/accounts': apiError(500, 'InternalError', 'Something went wrong on our side.') });
    renderBalance();
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong on our side.');
  });

  it('asks for nothing while the user is only half way through sign-in', async () => {
    useSession.getState().reset();
    useSession
      .getState()
      .applyChallenge({ challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'treasury@acme.test', session: 's' }, { email: 'treasury@acme.test', password: 'pw' });
    const api = mockApi({ 'GET partner/accounts': { body: accounts() } });
    renderBalance();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls).toEqual([]);
  });

  it('shows what is pending, each part with its currency, and the recent movements with what each was and a link to its transaction', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '25000.00' }]) },
      'GET partner/balance': {
        body: balanceOverview('25000.00', {
          pending: { withdrawals: '1234.56', disbursements: '100.50', total: '1335.06' },
          recent: [
            ledgerMovement({ id: '2' }),
            ledgerMovement({
              kind: 'collection',
              description: 'Collection received',
              reference: 'c0770000-0000-4000-8000-000000000001',
              amount: '500.00',
              createdAt: '2026-11-22T09:00:00.000Z',
            }),
          ],
        }),
      },
    });
    renderBalance();
    expect((await screen.findByTestId('pending-withdrawals')).textContent).toBe('USD 1,234.56');
    expect(screen.getByTestId('pending-disbursements').textContent).toBe('USD 100.50');
    expect(screen.getByTestId('usd-pending').textContent).toBe('USD 1,335.06');
    const list = screen.getByTestId('recent-movements');
    expect(within(list).getByText('−USD 1,234.56')).toBeTruthy();
    expect(within(list).getByText('+USD 500.00')).toBeTruthy();
    expect(
      within(list)
        .getByRole('link', { name: /Withdrawal to a settlement wallet/ })
        .getAttribute('href'),
    ).toBe('/transactions?tab=3&id=5e770000-0000-4000-8000-0000000000ff');
    expect(
      within(list)
        .getByRole('link', { name: /Collection received/ })
        .getAttribute('href'),
    ).toBe('/transactions?tab=2&id=c0770000-0000-4000-8000-000000000001');
  });
});
