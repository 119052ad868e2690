import { MessageResponse, RefreshResponse } from '@portal/contract/auth';
import { SESSION_LOST_MESSAGE, api, setAuthHooks } from '../api-client.ts';
import { useSession } from './session-store.ts';

/** The session's own calls; the refresh token travels as an httpOnly cookie the page cannot read. */
const sessionApi = {
  refresh: () => api.post('users/refresh', {}, { schema: RefreshResponse, auth: false }),
  logout: () => api.post('users/logout', {}, { schema: MessageResponse, auth: false }),
};

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);
let flash: string | undefined;

/** The message the sign-in screen shows once after a logout that needs explaining. */
export function takeFlash(): string | undefined {
  const message = flash;
  flash = undefined;
  return message;
}
const resetters = new Set<() => void>();

/** The router's navigate, given at start-up, so that a lost session can leave the page from anywhere. */
export function setNavigator(fn: Navigate) {
  navigate = fn;
}

/** Stores that logout must reset (partner data, banners, payout configuration...) register here. */
export function onLogout(reset: () => void): () => void {
  resetters.add(reset);
  return () => resetters.delete(reset);
}

let refreshing: Promise<boolean> | undefined;

/** Refreshes the access token once at a time; false when the session cannot go on. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const { user } = useSession.getState();
    if (!user) return false;
    try {
      const res = await sessionApi.refresh();
      useSession.getState().setToken(res.accessToken, res.expiresIn);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/** Ends the session: server, every store, session storage; then /login, with a message when given. */
export function logout(options: { message?: string; callServer?: boolean } = {}) {
  if (options.callServer !== false) void sessionApi.logout().catch(() => undefined);
  useSession.getState().reset();
  for (const reset of resetters) reset();
  try {
    sessionStorage.clear();
  } catch {
    // storage unavailable: nothing to clear
  }
  flash = options.message;
  navigate('/login');
}

export function installAuthHooks() {
  setAuthHooks({
    token: () => useSession.getState().user?.token,
    refresh: refreshSession,
    onSessionLost: () => logout({ message: SESSION_LOST_MESSAGE, callServer: false }),
  });
}
