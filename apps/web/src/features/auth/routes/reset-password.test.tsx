import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session/session-store.ts';
import { mockApi } from '../../../testing/api-mock.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { ResetPasswordScreen } from './reset-password.tsx';

const TOO_COMMON = 'This password is too common. Choose one that is harder to guess.';
const renderNewPassword = () => renderScreen(<ResetPasswordScreen />, { path: '/reset-password' });
const rule = (id: string) =>
  within(screen.getByTestId('password-rules'))
    .getAllByRole('listitem')
    .find((li) => li.dataset.rule === id)!;

describe('choosing a first password', () => {
  beforeEach(() => {
    useSession.getState().reset();
    useSession.getState().beginInvitation({ email: 'invited@acme.test', token: 'demo-invitation-acme-2026', partnerName: 'Acme Remit', role: 'view' });
  });

  it('ticks the rules as the user types, the common-password rule once the list is loaded', async () => {
    mockApi();
    const { user } = renderNewPassword();
    const field = screen.getByLabelText('New password');
    expect(field.getAttribute('aria-describedby')).toContain(screen.getByTestId('password-rules').id);
    expect(rule('length').dataset.state).toBe('open');
    await user.type(field, 'Kilimanjaro');
    expect(rule('length').dataset.state).toBe('open');
    expect(rule('mix').dataset.state).toBe('open');
    await user.type(field, '-7');
    expect(rule('length').dataset.state).toBe('met');
    expect(rule('mix').dataset.state).toBe('met');
    expect(rule('notEmail').dataset.state).toBe('met');
    await waitFor(() => expect(rule('notCommon').dataset.state).toBe('met'));
    await user.clear(field);
    await user.type(field, 'Password123!');
    expect(rule('length').dataset.state).toBe('met');
    expect(rule('notCommon').dataset.state).toBe('broken');
    expect(rule('notCommon').textContent).toBe('Not a common password (not met)');
  });

  it('refuses Password123! and a mismatched confirmation without calling the server', async () => {
    const api = mockApi();
    const { user } = renderNewPassword();
    await user.type(screen.getByLabelText('New password'), 'Password123!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Password123!');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(TOO_COMMON);
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'Kilimanjaro-Peak-77');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The passwords do not match.');
    expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('sets a good password and signs in with it', async () => {
    const api = mockApi({
      'PUT users/password': { body: { message: 'ok' } },
      'POST users/login': { body: { challengeName: 'MFA_SETUP', userName: 'invited@acme.test', session: 's', mfaSecret: 'ABCDEFGHIJKLMNOP' } },
    });
    const { user } = renderNewPassword();
    await user.type(screen.getByLabelText('New password'), 'Kilimanjaro-Peak-77');
    await user.type(screen.getByLabelText('Confirm new password'), 'Kilimanjaro-Peak-77');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/two-factor-authentication');
    expect(api.to('PUT users/password').map((c) => c.body)).toEqual([
      { password: 'Kilimanjaro-Peak-77', email: 'invited@acme.test', tempPassword: 'demo-invitation-acme-2026' },
    ]);
  });
});
