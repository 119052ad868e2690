import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { payoutConfig, profile, signIn } from '../../../testing/factories.ts';
import { inFrench } from '../../../testing/french.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { SettingsScreen } from '../routes/settings.tsx';

const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });

/** Settings for a user of this partner whose first screen is `startScreen`, saved as the server would. */
function renderSettings(partner = profile(), startScreen = 'transactions') {
  let saved = startScreen;
  const api = mockApi({
    'GET partner/profile': { body: partner },
    'GET partner/payout-config': { body: payoutConfig({ type: 'MANUAL' }, null) },
    'GET user/preferences': () => ({ body: { timeZone: null, language: null, startScreen: saved } }),
    'PUT user/preferences': (call: ApiCall) => {
      saved = (call.body as { startScreen: string }).startScreen;
      return { body: { timeZone: null, language: null, startScreen: saved } };
    },
  });
  return { api, ...renderScreen(<SettingsScreen />, { path: '/settings' }) };
}

describe("Settings' first screen after sign-in", () => {
  for (const role of ['admin', 'view'] as const)
    it(`offers Transactions and Overview beside the time zone and language, and saves the choice for the user (${role})`, async () => {
      signIn(role);
      const { api, user } = renderSettings();
      await screen.findByRole('heading', { name: 'First screen after sign-in', level: 2 });
      await waitFor(() => expect(radio('Transactions').checked).toBe(true));
      // next to the time zone and the language
      const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
      expect(titles.slice(titles.indexOf('Time zone'), titles.indexOf('Time zone') + 3)).toEqual(['Time zone', 'Language', 'First screen after sign-in']);
      await user.click(radio('Overview'));
      await waitFor(() => expect(radio('Overview').checked).toBe(true));
      expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ startScreen: 'overview' }]);
      expect(useToasts.getState().toast.message).toBe('After signing in, you will now land on Overview');
      await user.click(radio('Transactions'));
      await waitFor(() => expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ startScreen: 'overview' }, { startScreen: 'transactions' }]));
    });

  it('shows the saved choice, and keeps it when the server refuses a change', async () => {
    signIn('admin');
    const { api, user } = renderSettings(profile(), 'overview');
    await waitFor(() => expect(radio('Overview').checked).toBe(true));
    api.on('PUT user/preferences', apiError(503, 'ServiceUnavailable', 'The service is unavailable. Try again in a moment.'));
    await user.click(radio('Transactions'));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('The service is unavailable. Try again in a moment.'));
    expect(radio('Overview').checked).toBe(true);
  });

  it('is not offered to a commercial partner, whose only first screen is its trades', async () => {
    signIn('admin');
    renderSettings(profile({ isB2B: false, isCommercial: true, isWhitelistedCommercial: true, productTypes: ['COMMERCIAL'] }));
    // the sections drawn (their skeleton names every section)
    await screen.findByRole('radio', { name: 'English' });
    expect(screen.queryByRole('heading', { name: 'First screen after sign-in' })).toBeNull();
  });

  describe('in French', () => {
    inFrench('view');

    it('names the choice and its screens in French', async () => {
      const { api, user } = renderSettings();
      await screen.findByRole('heading', { name: 'Premier écran après la connexion', level: 2 });
      await user.click(await screen.findByRole('radio', { name: 'Vue d’ensemble' }));
      await waitFor(() => expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ startScreen: 'overview' }]));
      expect(useToasts.getState().toast.message).toBe('Après la connexion, vous arriverez désormais sur l’écran «\u00a0Vue d’ensemble\u00a0»');
    });
  });
});
