import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_EXPIRY_MARGIN_SECONDS, refreshTime, useSession } from './session-store.ts';

const creds = { email: 'a@acme.test', password: 'pw' };
const user = {
  id: '0a5e0001-0000-4000-8000-000000000001',
  name: 'A',
  email: 'a@acme.test',
  role: 'admin' as const,
  partnerId: '0a5e0000-0000-4000-8000-00000000ac3e',
  status: 'active' as const,
};

describe('auth state', () => {
  beforeEach(() => useSession.getState().reset());

  it('stores what each step needs: an invitation link begins the first-password step, then each challenge', () => {
    const s = useSession.getState();
    s.beginInvitation({ email: 'a@acme.test', token: 'link-token', partnerName: 'Acme Remit', role: 'treasury' });
    expect(useSession.getState()).toMatchObject({
      isLoggedIn: true,
      verified: false,
      challenge: 'NEW_PASSWORD_REQUIRED',
      tempPassword: 'link-token',
      invitation: { partnerName: 'Acme Remit', role: 'treasury' },
      temporaryLogin: { email: 'a@acme.test', challengeName: 'NEW_PASSWORD_REQUIRED' },
      currentStep: 1,
      totalSteps: 3,
    });
    s.applyChallenge({ challengeName: 'MFA_SETUP', userName: 'a@acme.test', session: 's1', mfaSecret: 'SECRET' }, creds);
    // the authenticator is the second of the invitee's three steps
    expect(useSession.getState()).toMatchObject({ sessionToken: 's1', mfaSecret: 'SECRET', challenge: 'MFA_SETUP', currentStep: 2, totalSteps: 3 });
    s.applyChallenge({ challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'a@acme.test', session: 's2' }, creds);
    expect(useSession.getState()).toMatchObject({ sessionToken: 's2', username: 'a@acme.test' });
    s.reset();
    s.applyChallenge({ challengeName: 'PASSWORD_RESET_REQUESTED', userName: 'a@acme.test' }, creds);
    expect(useSession.getState()).toMatchObject({ challenge: 'PASSWORD_RESET_REQUESTED', isLoggedIn: false });
  });

  it("refuses MFA setup without session and secret, and an unknown challenge, with the spec's messages", () => {
    const s = useSession.getState();
    expect(() => s.applyChallenge({ challengeName: 'MFA_SETUP', userName: 'a' }, creds)).toThrow(
      'cannot continue with mfa setup without session token and secret',
    );
    expect(() => s.applyChallenge({ challengeName: 'OTHER' as 'MFA_SETUP', userName: 'a' }, creds)).toThrow('challenge not implemented');
    // a sign-in never asks for a first password: only an invitation's link does
    expect(() => s.applyChallenge({ challengeName: 'NEW_PASSWORD_REQUIRED', userName: 'a' }, creds)).toThrow('challenge not implemented');
  });

  it('signs in with the reply, and refreshes 100 s before expiry', () => {
    const before = Date.now();
    useSession.getState().applyAuthResult({ user, accessToken: 't1', expiresIn: 900, refreshToken: 'r' });
    const s = useSession.getState();
    expect(s).toMatchObject({ verified: true, isLoggedIn: true, user: { ...user, token: 't1' }, sessionToken: undefined, tempPassword: undefined });
    expect(s.refreshAt! - before).toBeGreaterThanOrEqual((900 - TOKEN_EXPIRY_MARGIN_SECONDS) * 1000);
    expect(refreshTime(900, 0)).toBe(800_000);
    // a short token (a test's server) is renewed a quarter of its life before its end, not at once in a loop
    expect(refreshTime(20, 0)).toBe(15_000);
    expect(refreshTime(400, 0)).toBe(300_000);
    expect(() => useSession.getState().applyAuthResult({ accessToken: 't' } as never)).toThrow('user undefined in verify token response');
    useSession.getState().setToken('t2', 900);
    expect(useSession.getState().user?.token).toBe('t2');
  });

  it('keeps the invitation token and recovery codes out of session storage, and empties on reset', () => {
    useSession.getState().beginInvitation({ email: 'a@acme.test', token: 'link-token', partnerName: 'Acme Remit', role: 'view' });
    const stored = sessionStorage.getItem('portal-session') ?? '';
    expect(stored).toContain('NEW_PASSWORD_REQUIRED');
    expect(stored).not.toContain('link-token');
    expect(stored).not.toContain('"tempPassword"');
    useSession.getState().reset();
    expect(useSession.getState()).toMatchObject({ isLoggedIn: false, verified: false, user: undefined, challenge: undefined });
    expect(() => useSession.getState().setToken('x', 1)).toThrow('cannot retrieve token if user is undefined');
  });
});
