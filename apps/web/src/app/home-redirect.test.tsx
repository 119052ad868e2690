import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, mockApi, type Reply } from '../testing/api-mock.ts';
import { profile, signIn } from '../testing/factories.ts';
import { renderScreen } from '../testing/render.tsx';
import { HomeRedirect } from './guarded.tsx';

/** Where home (where a sign-in lands) sends a user of this partner with these preferences. */
async function home(partner: ReturnType<typeof profile>, preferences: Reply) {
  signIn('view');
  mockApi({ 'GET partner/profile': { body: partner }, 'GET user/preferences': preferences });
  renderScreen(<HomeRedirect />, { path: '/' });
  return (await screen.findByTestId('location')).textContent;
}

describe('home, after sign-in', () => {
  it("sends a B2B partner's user who chose the Overview there", async () => {
    expect(await home(profile(), { body: { timeZone: null, language: null, startScreen: 'overview' } })).toBe('/overview');
  });

  it('sends everyone else to the transactions, as before', async () => {
    expect(await home(profile(), { body: { timeZone: null, language: null, startScreen: 'transactions' } })).toBe('/transactions');
  });

  it('sends to the transactions when the preferences cannot be read', async () => {
    expect(await home(profile(), apiError(500, 'InternalError', 'Something went wrong on our side.'))).toBe('/transactions');
  });

  it('sends a commercial partner to its trades, whatever was chosen', async () => {
    const kora = profile({ isB2B: false, isCommercial: true, isWhitelistedCommercial: true, productTypes: ['COMMERCIAL'] });
    expect(await home(kora, { body: { timeZone: null, language: null, startScreen: 'overview' } })).toBe('/trades');
  });
});
