import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TwoFactorScreen } from './two-factor.tsx';

const USER = { id: '0a5e0001-0000-4000-8000-000000000001', name: 'Ada Admin', email: 'admin@acme.test', role: 'admin' as const, partnerId: PARTNER_ID, status: 'active' as const };
const signedIn = { body: { user: USER, accessToken: 'access-1', expiresIn: 900, refreshToken: 'r' } };

const renderPrompt = () => renderScreen(<TwoFactorScreen />, { path: '/two-factor-authentication' });

describe('two-factor prompt', () => {
  beforeEach(() => {
    useSession.getState().applyChallenge({ challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'admin@acme.test', session: 'challenge-1' }, { email: 'admin@acme.test', password: 'pw' });
  });

  it("refuses a code that is not six digits with 'Invalid OTP', without calling the server", async () => {
    const api = mockApi();
    const { user } = renderPrompt();
    await user.type(screen.getByLabelText('Authentication code'), '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert').textContent).toBe('Invalid OTP');
    expect(api.calls).toEqual([]);
  });

  it('answers the challenge with the session and the code, signs in and goes home', async () => {
    const api = mockApi({ 'POST users/challenge-response': signedIn });
    const { user } = renderPrompt();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(api.to('POST users/challenge-response').map((c) => c.body)).toEqual([{ session: 'challenge-1', challengeName: 'SOFTWARE_TOKEN_MFA', username: 'admin@acme.test', userCode: '123456' }]);
    expect(useSession.getState()).toMatchObject({ verified: true, isLoggedIn: true, sessionToken: undefined, user: { ...USER, token: 'access-1' } });
  });

  it('takes a recovery code in recovery mode', async () => {
    const api = mockApi({ 'POST users/challenge-response': signedIn });
    const { user } = renderPrompt();
    await user.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(api.to('POST users/challenge-response')[0]!.body).toMatchObject({ userCode: 'abcde-12345' });
  });

  it('shows a wrong code and empties the field, staying on the prompt', async () => {
    mockApi({ 'POST users/challenge-response': apiError(401, 'InvalidOtp', 'Invalid OTP') });
    const { user } = renderPrompt();
    const input = screen.getByLabelText('Authentication code');
    await user.type(input, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid OTP');
    expect((input as HTMLInputElement).value).toBe('');
    expect(useSession.getState().verified).toBe(false);
  });

  it('on an expired challenge offers to sign in again instead of the form', async () => {
    mockApi({ 'POST users/challenge-response': apiError(401, 'ChallengeExpired', 'Your sign-in session has expired. Sign in again.') });
    const { user } = renderPrompt();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your sign-in session has expired. Sign in again.');
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
  });

  it('without a challenge in the session, says it expired', () => {
    useSession.getState().reset();
    mockApi();
    renderPrompt();
    expect(screen.getByRole('alert').textContent).toBe('Your sign-in session has expired. Sign in again.');
  });
});
