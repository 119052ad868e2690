import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { setDisplayTimeZone } from '../../../lib/format.ts';
import { apiError, mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { payoutConfig, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { SettingsScreen } from '../routes/settings.tsx';

const inForce = () => screen.getByTestId('time-zone-in-force').textContent;

describe("Settings' time zone", () => {
  const browserZone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Africa/Nairobi';
  });
  afterEach(() => {
    process.env.TZ = browserZone;
    setDisplayTimeZone(null);
  });

  for (const role of ['admin', 'treasury', 'view'] as const)
    it(`says the zone in force and switches to the browser's and back, saved for the user (${role})`, async () => {
      signIn(role);
      let zone: string | null = null;
      const api = mockApi({
        'GET partner/profile': { body: profile() },
        'GET partner/payout-config': { body: payoutConfig({ type: 'MANUAL' }, null) },
        'GET user/preferences': () => ({ body: { timeZone: zone, language: null, startScreen: 'transactions' } }),
        'PUT user/preferences': (call: ApiCall) => {
          zone = (call.body as { timeZone: string | null }).timeZone;
          return { body: { timeZone: zone, language: null, startScreen: 'transactions' } };
        },
      });
      const { user } = renderScreen(<SettingsScreen />, { path: '/settings' });
      await screen.findByRole('heading', { name: 'Time zone' });
      await waitFor(() => expect(inForce()).toBe('Times are shown in UTC.'));
      await user.click(screen.getByRole('button', { name: 'Use my browser’s time zone (Africa/Nairobi)' }));
      await waitFor(() => expect(inForce()).toBe('Times are shown in Africa/Nairobi (your browser’s time zone).'));
      expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ timeZone: 'Africa/Nairobi' }]);
      expect(useToasts.getState().toast.message).toBe('Times are now shown in Africa/Nairobi');
      await user.click(screen.getByRole('button', { name: 'Use UTC' }));
      await waitFor(() => expect(inForce()).toBe('Times are shown in UTC.'));
      expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ timeZone: 'Africa/Nairobi' }, { timeZone: null }]);
    });

  it("shows the server's refusal in words and keeps the zone", async () => {
    signIn('view');
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: payoutConfig({ type: 'MANUAL' }, null) },
      'PUT user/preferences': apiError(400, 'ValidationFailed', 'Choose a time zone such as Africa/Nairobi or UTC.'),
    });
    const { user } = renderScreen(<SettingsScreen />, { path: '/settings' });
    await user.click(await screen.findByRole('button', { name: 'Use my browser’s time zone (Africa/Nairobi)' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Choose a time zone such as Africa/Nairobi or UTC.'));
    expect(inForce()).toBe('Times are shown in UTC.');
  });
});
