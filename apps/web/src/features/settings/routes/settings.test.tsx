import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { payoutConfig, profile, settlementWallet, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { translator } from '../../../lib/i18n.ts';
import { settingsMessages } from '../messages.ts';
import { SettingsScreen } from './settings.tsx';
import { formatDay } from '../../../lib/format.ts';
import { inFrench } from '../../../testing/french.ts';

const READ_ONLY = 'You do not have edit access because you are not an admin';
const PAYOUT_NOT_LOADED = translator(settingsMessages, 'en')('payout.notLoaded');
const WEEKLY = payoutConfig(
  { type: 'AUTOMATED', frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'], endPayout: 'After Payouts', endPayoutAfter: 6 },
  '2026-11-26',
);

const renderSettings = () => renderScreen(<SettingsScreen />, { path: '/settings' });
const saveButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Save payout settings' });
const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });

describe('settings screen, as an admin', () => {
  it('shows the stored schedule with its summaries and the next payout date', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/payout-config': { body: WEEKLY } });
    renderSettings();
    await screen.findByTestId('repeat-summary');
    expect(radio('Automated').checked).toBe(true);
    expect(radio('Weekly').checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Mon' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Tue' }).checked).toBe(false);
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Weekly: Monday, Thursday');
    expect(screen.getByTestId('end-summary').textContent).toBe('After 6 Payouts');
    expect(screen.getByText('Nov 26, 2026')).toBeTruthy();
    expect(screen.queryByText(READ_ONLY)).toBeNull();
    expect(saveButton().disabled).toBe(false);
  });

  it('warns that an automated schedule pays nothing while no settlement wallet is enabled, and not otherwise', async () => {
    const NO_WALLET = translator(settingsMessages, 'en')('payout.noWallet');
    signIn('admin');
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: WEEKLY },
      'GET partner/wallets': { body: { wallets: [settlementWallet({ status: 'pending_approval' })] } },
    });
    const first = renderSettings();
    expect((await screen.findByTestId('payout-no-wallet')).textContent).toBe(NO_WALLET);
    // manual payouts are asked for one by one: nothing to warn of
    fireEvent.click(radio('Manual'));
    expect(screen.queryByTestId('payout-no-wallet')).toBeNull();
    first.unmount();
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: WEEKLY },
      'GET partner/wallets': { body: { wallets: [settlementWallet()] } },
    });
    renderSettings();
    await screen.findByTestId('repeat-summary');
    await waitFor(() => expect(screen.queryByTestId('payout-no-wallet')).toBeNull());
  });

  it('draws its sections together once their data is in: until then, their titles over grey bars', async () => {
    signIn('admin');
    let answer: (reply: { body: unknown }) => void = () => undefined;
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': () => new Promise((resolve) => (answer = resolve)),
      'GET user/notification-preferences': { body: { email: [{ topic: 'withdrawals', enabled: true }] } },
    });
    renderSettings();
    // the words of every section, where they will be, and nothing to fill in yet
    for (const title of ['Low balance limit', 'Payout settings', 'Notifications', 'Time zone'])
      expect(await screen.findByRole('heading', { name: title, level: 2 })).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    answer({ body: WEEKLY });
    // then all of them at once: the low-balance field and the switches came with the schedule, not before it
    await screen.findByTestId('repeat-summary');
    expect(radio('Weekly').checked).toBe(true);
    expect(screen.getByRole('textbox', { name: /Limit \(USD\)/ })).toBeTruthy();
    expect(screen.getAllByRole('switch').length).toBe(1);
  });

  it('edits the schedule through the monthly form and saves exactly what is shown', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: WEEKLY },
      'POST partner/payout-config': (call) => ({ body: { config: call.body, nextPayoutDate: '2026-12-31' } }),
    });
    const { user, container } = renderSettings();
    await screen.findByTestId('repeat-summary');
    await user.click(radio('Monthly'));
    // a monthly schedule without its date cannot be saved, and says why
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByText('A monthly schedule needs a date of the month.')).toBeTruthy();
    // the day of the month is the portal's searchable select, like the others: no native select on the screen
    expect(container.querySelector('select')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Day of the month: Choose a day' }));
    await user.click(screen.getByRole('option', { name: '31' }));
    await user.click(radio('Never'));
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Monthly: 31');
    expect(screen.getByTestId('end-summary').textContent).toBe('Never');
    await user.click(saveButton());
    await screen.findByText('Dec 31, 2026');
    expect(api.to('POST partner/payout-config').map((c) => c.body)).toEqual([
      { ...WEEKLY.config, frequency: 'Monthly', monthlyDate: 31, endPayout: 'Never', weeklyDays: [], endPayoutAfter: null, repeatFrequency: 1 },
    ]);
    expect(useToasts.getState().toast.message).toBe('Payout settings saved');
  });

  it('keeps the summary with the draft: frequency, repeat frequency and the next payout if saved now', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/payout-config': { body: WEEKLY } });
    const { user } = renderSettings();
    await screen.findByTestId('repeat-summary');
    expect(screen.getByTestId('next-payout').textContent).toBe('Nov 26, 2026');
    await user.click(radio('Daily'));
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Daily');
    expect(screen.getByText('Next payout, if saved now')).toBeTruthy();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(screen.getByTestId('next-payout').textContent).toBe(formatDay(tomorrow));
    await user.click(radio('Weekly'));
    const every = screen.getByLabelText<HTMLInputElement>('Repeat every');
    expect(every.value).toBe('1');
    await user.clear(every);
    await user.type(every, '2');
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Every 2 weeks: Monday, Thursday');
    await user.clear(every);
    await user.type(every, '0');
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByText('Repeat every: use a whole number from 1 to 365.')).toBeTruthy();
  });

  it('keeps the schedule while the type goes to Manual and back, and asks before saving Manual over it', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: WEEKLY },
      'POST partner/payout-config': (call) => ({ body: { config: call.body, nextPayoutDate: null } }),
    });
    const { user } = renderSettings();
    await screen.findByTestId('repeat-summary');
    await user.click(radio('Manual'));
    expect(screen.getByTestId('manual-wipes-schedule').textContent).toContain('Weekly: Monday, Thursday, ends After 6 Payouts');
    await user.click(radio('Automated'));
    // nothing was lost by the clicks
    expect(radio('Weekly').checked).toBe(true);
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Weekly: Monday, Thursday');
    expect(screen.queryByTestId('manual-wipes-schedule')).toBeNull();

    await user.click(radio('Manual'));
    await user.click(saveButton());
    const dialog = await screen.findByRole('dialog', { name: 'Switch to manual payouts?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep the schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('POST partner/payout-config')).toEqual([]);
    // focus is back on the button that asked
    await waitFor(() => expect(document.activeElement).toBe(saveButton()));

    await user.click(saveButton());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete schedule and save' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Payout settings saved'));
    expect(api.to('POST partner/payout-config').map((c) => c.body)).toEqual([
      { ...WEEKLY.config, type: 'MANUAL', frequency: null, weeklyDays: [], endPayout: null, endPayoutAfter: null },
    ]);
  });

  it('refuses -5, 0.001, abc and zero with what to change, sending nothing, and saves a valid one', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile({ lowBalanceLimit: '1000.00000000' }) },
      'GET partner/payout-config': { body: payoutConfig() },
      'POST partner/low-balance-limit': { body: { lowBalanceLimit: '2500.00000000' } },
    });
    const { user } = renderSettings();
    const field = await screen.findByDisplayValue<HTMLInputElement>('1000');
    const cases: [string, string][] = [
      ['-5', 'Invalid low balance limit value: the limit must be above zero.'],
      ['0.001', 'Invalid low balance limit value: use at most 2 decimals (cents).'],
      ['abc', 'Invalid low balance limit value: enter a number, like 1000 or 2500.50.'],
      ['0', 'Invalid low balance limit value: the limit must be above zero.'],
    ];
    for (const [typed, message] of cases) {
      await user.clear(field);
      await user.type(field, typed);
      await user.click(screen.getByRole('button', { name: 'Save limit' }));
      expect((await screen.findByRole('alert')).textContent, typed).toBe(message);
      // what was typed stays, to be corrected
      expect(field.value).toBe(typed);
      expect(field.getAttribute('aria-invalid')).toBe('true');
    }
    expect(api.to('POST partner/low-balance-limit')).toEqual([]);
    await user.clear(field);
    await user.type(field, '2,500');
    // the message goes as soon as the value is right
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Low balance limit saved'));
    expect(api.to('POST partner/low-balance-limit').map((c) => c.body)).toEqual([{ lowBalanceLimit: '2500' }]);
  });

  it('shows the server refusal under the field', async () => {
    signIn('admin');
    mockApi({
      'GET partner/profile': { body: profile({ lowBalanceLimit: null }) },
      'GET partner/payout-config': { body: payoutConfig() },
      'POST partner/low-balance-limit': apiError(400, 'BadRequest', 'Invalid low balance limit value: the limit is too large.'),
    });
    const { user } = renderSettings();
    const field = await screen.findByLabelText<HTMLInputElement>('Limit (USD)');
    await user.type(field, '5000');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid low balance limit value: the limit is too large.');
  });

  it('when the payout configuration fails to load, shows manual but will not save until it loads', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': apiError(500, 'InternalError', 'Something went wrong on our side.'),
      'POST partner/payout-config': (call) => ({ body: { config: call.body, nextPayoutDate: null } }),
    });
    const { user } = renderSettings();
    expect((await screen.findByTestId('payout-not-loaded')).textContent).toBe(PAYOUT_NOT_LOADED);
    expect(radio('Manual').checked).toBe(true);
    expect(saveButton().disabled).toBe(true);
    // not even a submitted form (Enter in a field) sends the default
    fireEvent.submit(saveButton().closest('form')!);
    expect(screen.getAllByText(PAYOUT_NOT_LOADED).length).toBeGreaterThan(0);
    expect(api.to('POST partner/payout-config')).toEqual([]);

    // once it loads, the real schedule replaces the default and may be saved
    api.on('GET partner/payout-config', { body: WEEKLY });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('repeat-summary');
    expect(radio('Weekly').checked).toBe(true);
    expect(screen.queryByTestId('payout-not-loaded')).toBeNull();
    await user.click(saveButton());
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Payout settings saved'));
    expect(api.to('POST partner/payout-config').map((c) => c.body)).toEqual([{ ...WEEKLY.config, repeatFrequency: 1 }]);
  });
});

describe('settings screen, read-only', () => {
  it.each(['treasury', 'view'] as const)('a %s user sees the settings without being able to change them', async (role) => {
    signIn(role);
    const api = mockApi({ 'GET partner/profile': { body: profile({ lowBalanceLimit: '1500.00000000' }) }, 'GET partner/payout-config': { body: WEEKLY } });
    renderSettings();
    await screen.findByTestId('repeat-summary');
    expect(screen.getByRole('status').textContent).toBe(READ_ONLY);
    expect(screen.queryByRole('button', { name: 'Save payout settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save limit' })).toBeNull();
    expect((await screen.findByDisplayValue<HTMLInputElement>('1500')).disabled).toBe(true);
    const payout = screen.getByRole('heading', { name: 'Payout settings' }).parentElement!;
    expect(within(payout).getByRole<HTMLFieldSetElement>('group', { name: 'Payout settings' }).disabled).toBe(true);
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('a viewer sees no warning when the configuration fails to load: there is nothing to save', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/payout-config': apiError(500, 'InternalError', 'boom') });
    renderSettings();
    await screen.findByRole('radio', { name: 'Manual' });
    expect(radio('Manual').checked).toBe(true);
    expect(screen.queryByTestId('payout-not-loaded')).toBeNull();
  });
});

describe('settings screen, in French', () => {
  inFrench('admin');

  it('draws its sections, the schedule and its summaries in French, the next payout date in French', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/payout-config': { body: WEEKLY },
      'GET user/notification-preferences': { body: { email: [{ topic: 'low-balance', enabled: true }] } },
    });
    const { user } = renderSettings();
    await screen.findByTestId('repeat-summary');
    for (const title of ['Limite de solde bas', 'Paramètres de décaissement', 'Notifications', 'Fuseau horaire'])
      expect(screen.getByRole('heading', { name: title, level: 2 })).toBeTruthy();
    expect(screen.getByText(/\(1 000 USD si aucune limite n’est définie\)/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Automatique' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'Hebdomadaire' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Lun' })).toHaveProperty('checked', true);
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Hebdomadaire\u00a0: lundi, jeudi');
    expect(screen.getByTestId('end-summary').textContent).toBe('Après 6 décaissements');
    expect(screen.getByTestId('next-payout').textContent).toBe('26 nov. 2026');
    expect(screen.getByRole('switch', { name: 'Solde bas\u00a0: e-mail' })).toBeTruthy();
    expect(screen.getByTestId('time-zone-in-force').textContent).toBe('Les heures sont affichées dans le fuseau UTC.');
    expect(screen.getByRole('link', { name: /Équipe/ })).toBeTruthy();

    // the repeat line agrees with its unit, and a yearly date reads day first
    await user.clear(screen.getByLabelText('Répéter toutes les'));
    await user.type(screen.getByLabelText('Répéter toutes les'), '2');
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Toutes les 2 semaines\u00a0: lundi, jeudi');
    await user.click(screen.getByRole('radio', { name: 'Annuel' }));
    await user.click(screen.getByRole('button', { name: /^Mois/ }));
    await user.click(screen.getByRole('option', { name: 'janvier' }));
    expect(screen.getByTestId('repeat-summary').textContent).toBe('Tous les 2 ans\u00a0: 1er janvier');
    await user.click(screen.getByRole('radio', { name: 'Manuel' }));
    expect(screen.getByTestId('manual-wipes-schedule').textContent).toContain('(Hebdomadaire\u00a0: lundi, jeudi, fin\u00a0: Après 6 décaissements)');
  });
});
