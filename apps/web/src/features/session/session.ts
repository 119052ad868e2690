import { authApi } from '../auth/api/auth.ts';
import { setAuthHooks } from '../../lib/api-client.ts';
import { useSession } from './session-store.ts';

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
      const res = await authApi.refresh();
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
  if (options.callServer !== false) void authApi.logout().catch(() => undefined);
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
    onSessionLost: () => logout({ message: 'something went wrong', callServer: false }),
  });
}
