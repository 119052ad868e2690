import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { accounts, profile, signIn } from '../../../testing/factories.ts';
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
});
