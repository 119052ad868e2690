import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEAM_MESSAGES } from '@portal/contract/team';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { AcceptInvitationScreen, invitationToken } from './accept-invitation.tsx';

const TOKEN = 'Jx3-4lC_invitation-token';
const INVITATION = { email: 'naledi@acme.test', name: 'Naledi Dlamini', role: 'treasury', partnerName: 'Acme Remit', expiresAt: '2026-12-04T12:00:00.000Z' };
const open = (hash: string) => renderScreen(<AcceptInvitationScreen />, { path: '/accept-invitation', url: `/accept-invitation${hash}` });

describe('an invitation link', () => {
  beforeEach(() => useSession.getState().reset());

  it('reads the token from the fragment only', () => {
    expect(invitationToken(`#token=${TOKEN}`)).toBe(TOKEN);
    expect(invitationToken('')).toBe('');
    expect(invitationToken('#other=1')).toBe('');
  });

  it('says what it invites to, then chooses the password with the token and signs in to the authenticator step', async () => {
    const api = mockApi({
      'POST users/invitation': { body: INVITATION },
      'PUT users/password': { body: { message: 'ok' } },
      'POST users/login': { body: { challengeName: 'MFA_SETUP', userName: 'naledi@acme.test', session: 's', mfaSecret: 'ABCDEFGHIJKLMNOP' } },
    });
    const { user } = open(`#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Join Acme Remit' })).toBeTruthy();
    expect(screen.getByText(/invited to the Acme Remit Partner Dashboard as Treasury/)).toBeTruthy();
    expect(screen.getByText('naledi@acme.test')).toBeTruthy();
    expect(screen.getByText('Step 1 of 3')).toBeTruthy();
    expect(api.to('POST users/invitation').map((c) => c.body)).toEqual([{ token: TOKEN }]);
    await user.type(screen.getByLabelText('New password'), 'Kilimanjaro-Peak-77');
    await user.type(screen.getByLabelText('Confirm new password'), 'Kilimanjaro-Peak-77');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/two-factor-authentication');
    expect(api.to('PUT users/password').map((c) => c.body)).toEqual([{ password: 'Kilimanjaro-Peak-77', email: 'naledi@acme.test', tempPassword: TOKEN }]);
    expect(useSession.getState()).toMatchObject({ challenge: 'MFA_SETUP', currentStep: 2, totalSteps: 3 });
  });

  it('says a used or expired link cannot be used, with the server’s words, and asks nothing', async () => {
    const api = mockApi({ 'POST users/invitation': apiError(400, 'InvitationInvalid', TEAM_MESSAGES.invitationInvalid) });
    open(`#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeTruthy();
    expect(screen.getByText(TEAM_MESSAGES.invitationInvalid)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(1);
    expect(useSession.getState().tempPassword).toBeUndefined();
  });

  it('says so for a link without a token, without asking the server', async () => {
    const api = mockApi();
    open('');
    await waitFor(() => expect(screen.getByText(TEAM_MESSAGES.invitationInvalid)).toBeTruthy());
    expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});
