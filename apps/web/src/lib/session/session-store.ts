import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AuthResult, LoginResponse, RefreshResponse, SessionUser } from '@portal/contract/auth';
import type { ChallengeName, Role } from '@portal/contract/domain';
import { commonMessages } from '../common-messages.ts';
import { translator } from '../i18n.ts';

/** Token margin: the token is refreshed this many seconds before it expires (portal-core §9). */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 100;

export type User = SessionUser & { token: string; challengeName?: ChallengeName };

/** Auth state of portal-core §3. */
export type AuthState = {
  user: User | undefined;
  temporaryLogin: { email: string; challengeName: ChallengeName } | undefined;
  /** the refresh token is an httpOnly cookie; the page never holds it */
  refreshToken: undefined;
  currentStep: number;
  totalSteps: number;
  isLoggedIn: boolean;
  verified: boolean;
  sessionToken: string | undefined;
  username: string | undefined;
  mfaSecret: string | undefined;
  otpauthUri: string | undefined;
  challenge: ChallengeName | undefined;
  /** the invitation link's one-time token (the spec's temporary password); kept in memory only, never in session storage */
  tempPassword: string | undefined;
  /** what the invitation being accepted invites to, for the password step's words */
  invitation: { partnerName: string; role: Role } | undefined;
  /** shown once after authenticator setup; memory only */
  recoveryCodes: string[] | undefined;
  /** ms since the epoch at which the token should be refreshed (its expiry minus the margin) */
  refreshAt: number | undefined;
  /** a new tab signing itself in with the browser's session (the refresh cookie): screens wait; memory only */
  restoring: boolean;
};

type Actions = {
  /** stores what each sign-in challenge needs (portal-core §4); throws for an unknown challenge */
  applyChallenge(res: LoginResponse, credentials: { email: string; password: string }): void;
  /**
   * An invitation link opened: the first of three steps (password, authenticator, recovery codes), as the spec's
   * NEW_PASSWORD_REQUIRED challenge, with the link's token in place of the temporary password.
   */
  beginInvitation(invitation: { email: string; token: string; partnerName: string; role: Role }): void;
  applyAuthResult: (res: AuthResult) => void;
  /** a refreshed token, and the user as the server sees it now (its role may have changed) */
  setToken(accessToken: string, expiresIn: number, user?: SessionUser): void;
  /** signs this tab in with the browser's session: a refresh's reply */
  adopt(res: RefreshResponse): void;
  /** the user as the server sees it now (the profile carries it): role, name, status */
  updateUser(user: SessionUser): void;
  clearRecoveryCodes(): void;
  reset: () => void;
};

const EMPTY: AuthState = {
  user: undefined,
  temporaryLogin: undefined,
  refreshToken: undefined,
  currentStep: 0,
  totalSteps: 0,
  isLoggedIn: false,
  verified: false,
  sessionToken: undefined,
  username: undefined,
  mfaSecret: undefined,
  otpauthUri: undefined,
  challenge: undefined,
  tempPassword: undefined,
  invitation: undefined,
  recoveryCodes: undefined,
  refreshAt: undefined,
  restoring: false,
};

/**
 * When to renew a token that lives `expiresIn` seconds: 100 s before its end, or a quarter of its life before when it
 * is shorter than that (a server set to short tokens for a test must not be asked for a new one at once, in a loop).
 */
export const refreshTime = (expiresIn: number, now = Date.now()) => now + (expiresIn - Math.min(TOKEN_EXPIRY_MARGIN_SECONDS, expiresIn / 4)) * 1000;

export const useSession = create<AuthState & Actions>()(
  persist(
    (set, get) => ({
      ...EMPTY,
      applyChallenge(res, { email }) {
        const base = { isLoggedIn: true, verified: false, challenge: res.challengeName, username: res.userName };
        switch (res.challengeName) {
          case 'MFA_SETUP':
            if (!res.session || !res.mfaSecret) throw new Error(translator(commonMessages)('errors.mfaSetupIncomplete'));
            set({
              ...base,
              temporaryLogin: { email, challengeName: res.challengeName },
              sessionToken: res.session,
              mfaSecret: res.mfaSecret,
              otpauthUri: res.otpauthUri,
              currentStep: get().totalSteps === 3 ? 2 : 1,
              totalSteps: get().totalSteps === 3 ? 3 : 2,
            });
            return;
          case 'SOFTWARE_TOKEN_MFA':
            set({
              ...base,
              temporaryLogin: { email, challengeName: res.challengeName },
              ...(res.session ? { sessionToken: res.session } : {}),
              currentStep: 1,
              totalSteps: 1,
            });
            return;
          case 'PASSWORD_RESET_REQUESTED':
            set({ challenge: res.challengeName, temporaryLogin: { email, challengeName: res.challengeName } });
            return;
          default:
            throw new Error(translator(commonMessages)('errors.challengeNotImplemented'));
        }
      },
      beginInvitation({ email, token, partnerName, role }) {
        set({
          ...EMPTY,
          isLoggedIn: true,
          challenge: 'NEW_PASSWORD_REQUIRED',
          username: email,
          temporaryLogin: { email, challengeName: 'NEW_PASSWORD_REQUIRED' },
          tempPassword: token,
          invitation: { partnerName, role },
          currentStep: 1,
          totalSteps: 3,
        });
      },
      applyAuthResult(res) {
        if (!res.user) throw new Error(translator(commonMessages)('errors.noUserInResult'));
        set({
          user: { ...res.user, token: res.accessToken },
          isLoggedIn: true,
          verified: true,
          sessionToken: undefined,
          mfaSecret: undefined,
          otpauthUri: undefined,
          challenge: undefined,
          tempPassword: undefined,
          invitation: undefined,
          temporaryLogin: undefined,
          recoveryCodes: res.recoveryCodes,
          refreshAt: refreshTime(res.expiresIn),
        });
      },
      setToken(accessToken, expiresIn, fresh) {
        const user = get().user;
        if (!user) throw new Error(translator(commonMessages)('errors.noUserForToken'));
        set({ user: { ...user, ...fresh, token: accessToken }, refreshAt: refreshTime(expiresIn) });
      },
      adopt(res) {
        set({ ...EMPTY, user: { ...res.user, token: res.accessToken }, isLoggedIn: true, verified: true, refreshAt: refreshTime(res.expiresIn) });
      },
      updateUser(fresh) {
        const user = get().user;
        if (!user || user.id !== fresh.id) return;
        if (user.role === fresh.role && user.name === fresh.name && user.email === fresh.email && user.status === fresh.status) return;
        set({ user: { ...user, ...fresh } });
      },
      clearRecoveryCodes() {
        set({ recoveryCodes: undefined });
      },
      reset() {
        set({ ...EMPTY });
      },
    }),
    {
      name: 'portal-session',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (s) => {
        const { tempPassword: _t, invitation: _i, recoveryCodes: _r, restoring: _s, ...kept } = s;
        return kept;
      },
    },
  ),
);
