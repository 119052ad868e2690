import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { RECOVERY_FILE_NAME, TwoFactorScreen } from './two-factor.tsx';

const USER = {
  id: '0a5e0001-0000-4000-8000-000000000001',
  name: 'Ada Admin',
  email: 'admin@acme.test',
  role: 'admin' as const,
  partnerId: PARTNER_ID,
  status: 'active' as const,
};
const signedIn = { body: { user: USER, accessToken: 'access-1', expiresIn: 900, refreshToken: 'r' } };

const renderPrompt = () => renderScreen(<TwoFactorScreen />, { path: '/two-factor-authentication' });

describe('two-factor prompt', () => {
  beforeEach(() => {
    useSession
      .getState()
      .applyChallenge(
        { challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'admin@acme.test', session: 'challenge-1' },
        { email: 'admin@acme.test', password: 'pw' },
      );
  });

  it("refuses a code that is not six digits with 'The code you entered is incorrect. Try again.', without calling the server", async () => {
    const api = mockApi();
    const { user } = renderPrompt();
    await user.type(screen.getByLabelText('Authentication code'), '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert').textContent).toBe('The code you entered is incorrect. Try again.');
    expect(api.calls).toEqual([]);
  });

  it('answers the challenge with the session and the code, signs in and goes home', async () => {
    const api = mockApi({ 'POST users/challenge-response': signedIn });
    const { user } = renderPrompt();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(api.to('POST users/challenge-response').map((c) => c.body)).toEqual([
      { session: 'challenge-1', challengeName: 'SOFTWARE_TOKEN_MFA', username: 'admin@acme.test', userCode: '123456' },
    ]);
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

  it('after a recovery code, says how many recovery codes are left', async () => {
    mockApi({ 'POST users/challenge-response': { body: { ...signedIn.body, recoveryCodesLeft: 3 } } });
    const { user } = renderPrompt();
    await user.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(useToasts.getState().toast.message).toBe('You signed in with a recovery code: 3 recovery codes left.');
  });

  it('shows a wrong code and empties the field, staying on the prompt', async () => {
    mockApi({ 'POST users/challenge-response': apiError(401, 'InvalidOtp', 'The code you entered is incorrect. Try again.') });
    const { user } = renderPrompt();
    const input = screen.getByLabelText('Authentication code');
    await user.type(input, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code you entered is incorrect. Try again.');
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

describe('authenticator setup', () => {
  const SECRET = 'BPQYTYLSBWY2M6TIWWORONCT33ILZDWS';
  const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
  beforeEach(() => {
    useSession.getState().reset();
    useSession
      .getState()
      .applyChallenge(
        { challengeName: 'MFA_SETUP', userName: 'invited@acme.test', session: 'setup-1', mfaSecret: SECRET },
        { email: 'invited@acme.test', password: 'pw' },
      );
  });

  it('shows the key in groups of four that do not break inside, and copies it whole', () => {
    mockApi();
    renderPrompt();
    const key = screen.getByTestId('mfa-secret');
    const groups = [...key.querySelectorAll('span')];
    expect(groups.map((g) => g.textContent)).toEqual(['BPQY', 'TYLS', 'BWY2', 'M6TI', 'WWOR', 'ONCT', '33IL', 'ZDWS']);
    for (const g of groups) expect(g.className).toContain('whitespace-nowrap');
    expect(key.className).not.toContain('break-all');
    expect(key.textContent).toBe('BPQY TYLS BWY2 M6TI WWOR ONCT 33IL ZDWS');
  });

  it('offers the recovery codes as a .txt file, one code a line', async () => {
    mockApi({ 'POST users/verify-token': { body: { ...signedIn.body, user: { ...USER, email: 'invited@acme.test' }, recoveryCodes: CODES } } });
    const files: { name: string; blob: Blob }[] = [];
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      files.push({ name: '', blob: blob as Blob });
      return 'blob:recovery';
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files[files.length - 1]!.name = this.download;
    });
    try {
      const { user } = renderPrompt();
      await user.type(screen.getByLabelText('Authentication code'), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
      await screen.findByRole('heading', { name: 'Save your recovery codes' });
      await user.click(screen.getByRole('button', { name: 'Download .txt' }));
      expect(files).toHaveLength(1);
      expect(files[0]!.name).toBe(RECOVERY_FILE_NAME);
      expect(files[0]!.blob.type).toBe('text/plain;charset=utf-8');
      const lines = (await files[0]!.blob.text()).split('\r\n');
      expect(lines[1]).toBe('Account: invited@acme.test');
      expect(lines.filter((l) => /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(l))).toEqual(CODES);
    } finally {
      created.mockRestore();
      clicked.mockRestore();
    }
  });
});
