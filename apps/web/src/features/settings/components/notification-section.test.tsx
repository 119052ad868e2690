import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { topicsForRole } from '@portal/contract/notifications';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { payoutConfig, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { SettingsScreen } from '../routes/settings.tsx';

/** The server's answer for a role: its topics, with the ones turned off. */
const preferences = (role: 'admin' | 'treasury' | 'view', off: Set<string>) => ({
  email: topicsForRole(role).map((topic) => ({ topic, enabled: !off.has(topic) })),
});

describe("Settings' notifications", () => {
  for (const role of ['admin', 'treasury'] as const)
    it(`lists the topics of the role (${role}) with their e-mail switch, and saves one change at a time`, async () => {
      signIn(role);
      const off = new Set<string>();
      const api = mockApi({
        'GET partner/profile': { body: profile() },
        'GET partner/payout-config': { body: payoutConfig({ type: 'MANUAL' }, null) },
        'GET user/notification-preferences': () => ({ body: preferences(role, off) }),
        'PUT user/notification-preferences': (call: ApiCall) => {
          for (const c of (call.body as { email: { topic: string; enabled: boolean }[] }).email) {
            if (c.enabled) off.delete(c.topic);
            else off.add(c.topic);
          }
          return { body: preferences(role, off) };
        },
      });
      const { user } = renderScreen(<SettingsScreen />, { path: '/settings' });
      const list = await screen.findByTestId('notification-preferences');
      const switches = within(list).getAllByRole('switch');
      expect(switches.map((s) => s.getAttribute('aria-label'))).toEqual(
        role === 'admin'
          ? [
              'Withdrawals: e-mail',
              'Wallet addresses: e-mail',
              'Countries: e-mail',
              'Low balance: e-mail',
              'API keys, allowed IPs and webhooks: e-mail',
              'Your account: e-mail',
            ]
          : ['Withdrawals: e-mail', 'Wallet addresses: e-mail', 'Low balance: e-mail', 'Your account: e-mail'],
      );
      expect(switches.every((s) => s.getAttribute('aria-checked') === 'true')).toBe(true);
      const lowBalance = within(list).getByRole('switch', { name: 'Low balance: e-mail' });
      await user.click(lowBalance);
      await waitFor(() => expect(lowBalance.getAttribute('aria-checked')).toBe('false'));
      expect(api.to('PUT user/notification-preferences').map((c) => c.body)).toEqual([{ email: [{ topic: 'low-balance', enabled: false }] }]);
      expect(useToasts.getState().toast.message).toBe('E-mails about low balance are off');
    });

  it('gives a view-only user the one topic that concerns them: their account (a change of their role)', async () => {
    signIn('view');
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: payoutConfig({ type: 'MANUAL' }, null) },
      'GET user/notification-preferences': { body: preferences('view', new Set()) },
    });
    renderScreen(<SettingsScreen />, { path: '/settings' });
    const list = await screen.findByTestId('notification-preferences');
    expect(
      within(list)
        .getAllByRole('switch')
        .map((s) => s.getAttribute('aria-label')),
    ).toEqual(['Your account: e-mail']);
    expect(within(list).getByText('An admin changes your role, and with it what you can see and do.')).toBeTruthy();
  });
});
