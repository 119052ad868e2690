import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session/session-store.ts';
import { mockApi } from '../../../testing/api-mock.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { RequestedPasswordResetScreen } from './requested-password-reset.tsx';

const renderReset = (url = '/requested-password-reset') => renderScreen(<RequestedPasswordResetScreen />, { path: '/requested-password-reset', url });

/** Types `code` and a strong new password, changes the password, and checks that viewer@acme.test's change was sent once with them. */
async function changePasswordWith(user: ReturnType<typeof renderReset>['user'], api: ReturnType<typeof mockApi>, code: string) {
  await user.type(screen.getByLabelText('Six-digit code'), code);
  await user.type(screen.getByLabelText('New password'), 'Kilimanjaro-Sunrise-42');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  await waitFor(() =>
    expect(api.to('POST users/confirm-password-reset').map((c) => c.body)).toEqual([
      { email: 'viewer@acme.test', password: 'Kilimanjaro-Sunrise-42', confirmationCode: code },
    ]),
  );
}

describe('requested password reset screen', () => {
  beforeEach(() => useSession.getState().reset());

  it('after an admin reset, starts at the code that was e-mailed, and sets the password with it', async () => {
    useSession
      .getState()
      .applyChallenge({ challengeName: 'PASSWORD_RESET_REQUESTED', userName: 'viewer@acme.test' }, { email: 'viewer@acme.test', password: 'old' });
    const api = mockApi({
      'POST users/confirm-password-reset': { body: { message: 'ok' } },
      'POST users/forgot-password': { body: { message: 'A new code is on its way.' } },
    });
    const { user } = renderReset('/requested-password-reset?reason=admin');
    expect(screen.getByText(/Your administrator reset your password. Enter the six-digit code we e-mailed to viewer@acme.test/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send code' })).toBeNull();
    // a new code when the first one is lost or expired
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await screen.findByText('A new code is on its way.');
    expect(api.to('POST users/forgot-password').map((c) => c.body)).toEqual([{ email: 'viewer@acme.test' }]);
    await changePasswordWith(user, api, '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/password-changed');
  });

  it('lets someone who holds a code go straight to it, with the e-mail asked for', async () => {
    const api = mockApi({ 'POST users/confirm-password-reset': { body: { message: 'ok' } } });
    const { user } = renderReset();
    await user.click(screen.getByRole('button', { name: 'I already have a code' }));
    await user.type(screen.getByLabelText('E-mail'), 'viewer@acme.test');
    await changePasswordWith(user, api, '654321');
  });

  it('checks the e-mail, the code and the password rules (Password123! is common) before sending', async () => {
    const api = mockApi({ 'POST users/forgot-password': { body: { message: 'sent' } } });
    const { user } = renderReset();
    await user.type(screen.getByLabelText('E-mail'), 'viewer@acme');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a valid e-mail address');
    expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
    await user.type(screen.getByLabelText('E-mail'), '.test');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByText('sent');
    await user.type(screen.getByLabelText('Six-digit code'), '12a3');
    expect(screen.getByLabelText<HTMLInputElement>('Six-digit code').value).toBe('123');
    await user.type(screen.getByLabelText('New password'), 'Password123!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Enter the six-digit code from the e-mail',
        'This password is too common. Choose one that is harder to guess.',
      ]),
    );
    expect(api.to('POST users/confirm-password-reset')).toEqual([]);
  });
});
