import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FRENCH } from '../../../lib/french.ts';
import { provideFrench, setLanguage } from '../../../lib/i18n.ts';
import { logout, setNavigator } from '../../../lib/session/session.ts';
import { signIn } from '../../../testing/factories.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { LoginScreen } from './login.tsx';

const renderLogin = () => renderScreen(<LoginScreen />, { path: '/login' });

async function signInWith(user: ReturnType<typeof renderLogin>['user'], email: string, password: string) {
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login screen', () => {
  it('checks both fields with the contract schema before calling the server', async () => {
    const api = mockApi();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toEqual(['Enter a valid e-mail address', 'Enter your password']);
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('E-mail'), 'admin@acme');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toEqual(['Enter a valid e-mail address']);
    expect(api.calls).toEqual([]);
  });

  it('takes the keyboard from e-mail to password to Sign in before "Forgot password?"', async () => {
    mockApi();
    const { user } = renderLogin();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign in' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Forgot password?' }));
  });

  it('sends the credentials with the request-forgery token, stores the challenge and opens the code prompt', async () => {
    const api = mockApi({ 'POST users/login': { body: { challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'admin@acme.test', session: 'challenge-1' } } });
    const { user } = renderLogin();
    await signInWith(user, '  Admin@Acme.test ', 'Portal-demo-2026!');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/two-factor-authentication');
    expect(api.to('POST users/login')).toHaveLength(1);
    const [call] = api.to('POST users/login');
    expect(call!.body).toEqual({ email: 'admin@acme.test', password: 'Portal-demo-2026!' });
    expect(call!.headers['x-csrf-token']).toBe('csrf-test');
    expect(call!.headers.authorization).toBeUndefined();
    expect(useSession.getState()).toMatchObject({
      isLoggedIn: true,
      verified: false,
      challenge: 'SOFTWARE_TOKEN_MFA',
      sessionToken: 'challenge-1',
      username: 'admin@acme.test',
    });
    expect(useSession.getState().temporaryLogin?.email).toBe('admin@acme.test');
  });

  it("shows the server's refusal and stays", async () => {
    mockApi({ 'POST users/login': apiError(401, 'InvalidLogin', 'Incorrect email or password.') });
    const { user } = renderLogin();
    await signInWith(user, 'admin@acme.test', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect email or password.');
    expect(screen.queryByTestId('location')).toBeNull();
    expect(useSession.getState().isLoggedIn).toBe(false);
  });

  it('sends an inactive account to /account-inactive', async () => {
    mockApi({ 'POST users/login': apiError(403, 'AccountInactive', 'inactive') });
    const { user } = renderLogin();
    await signInWith(user, 'inactive@acme.test', 'Portal-demo-2026!');
    expect((await screen.findByTestId('location')).textContent).toBe('/account-inactive');
  });

  it('sends an account whose password an admin reset to the reset screen', async () => {
    mockApi({ 'POST users/login': { body: { challengeName: 'PASSWORD_RESET_REQUESTED', userName: 'admin@acme.test' } } });
    const { user } = renderLogin();
    await signInWith(user, 'admin@acme.test', 'x');
    expect((await screen.findByTestId('location')).textContent).toBe('/requested-password-reset?reason=admin');
  });
});

describe('login screen in French', () => {
  afterEach(() => setLanguage('en'));

  it("draws the form in French, the contract's checks and the last session's message translated", async () => {
    // the contract's words as its French catalogue gives them (fixed here: this screen only passes them through)
    provideFrench({
      ...FRENCH,
      contract: {
        ...FRENCH.contract,
        'Enter a valid e-mail address': 'Saisissez une adresse e-mail valide',
        'Enter your password': 'Saisissez votre mot de passe',
        'Your session has ended. Sign in again.': 'Votre session a pris fin. Reconnectez-vous.',
      },
    });
    await setLanguage('fr');
    const api = mockApi();
    // a session the server ended: the sign-in page says why, once
    signIn('view');
    setNavigator(() => undefined);
    logout({ message: 'Your session has ended. Sign in again.', callServer: false });
    const { user } = renderLogin();
    expect(screen.getByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(screen.getByText('Connectez-vous à votre tableau de bord partenaire.')).toBeTruthy();
    expect(screen.getByTestId('sign-in-flash').textContent).toBe('Votre session a pris fin. Reconnectez-vous.');
    expect(screen.getByRole('link', { name: 'Mot de passe oublié\u202f?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toEqual(['Saisissez une adresse e-mail valide', 'Saisissez votre mot de passe']);
    expect(screen.getByLabelText('Mot de passe').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls).toEqual([]);
  });
});
