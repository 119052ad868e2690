import { AUTH_MESSAGES, MessageResponse, RefreshResponse } from '@portal/contract/auth';
import { sessionEndMessage } from '@portal/contract/live';
import { ApiError, api, isOutage, setAuthHooks } from '../api-client.ts';
import { untilOnline } from '../connection.ts';
import { useSession } from './session-store.ts';
import { browserSignedIn, listenToOtherTabs, setBrowserSignedIn, tellOtherTabs } from './tabs.ts';

/**
 * The session's own calls; the refresh token travels as an httpOnly cookie the page cannot read. They carry the access
 * token this tab holds (expired or not; none in a tab that signs itself in) to name the session their request-forgery
 * token is bound to; their 401 is the answer, never a reason to renew.
 */
const sessionApi = {
  refresh: () => api.post('users/refresh', {}, { schema: RefreshResponse, renew: false }),
  logout: () => api.post('users/logout', {}, { schema: MessageResponse, renew: false }),
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

/** Seconds to wait when the server asks to slow down (429) before the refresh is sent again. */
const SLOW_DOWN_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why the last refresh could not be made (a 401 with the reason in words), for the sign-in page. */
let refreshRefusal: ApiError | undefined;

/**
 * A refresh with the browser's cookie, sent again through outages (the server away, a 502/503/504, a 429): an outage
 * is never the end of a session. Answers the reply, or undefined when the server refused the session (a 401).
 */
async function refreshThroughOutages(): Promise<RefreshResponse | undefined> {
  for (;;) {
    try {
      return await sessionApi.refresh();
    } catch (err) {
      if (isOutage(err)) {
        await untilOnline();
        continue;
      }
      if (err instanceof ApiError && err.status === 429) {
        await sleep(SLOW_DOWN_MS);
        continue;
      }
      refreshRefusal = err instanceof ApiError ? err : undefined;
      return undefined;
    }
  }
}

let refreshing: Promise<boolean> | undefined;

/** Refreshes the access token once at a time; false only when the server refused the session. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      if (!useSession.getState().user) return false;
      const res = await refreshThroughOutages();
      if (!res) return false;
      const now = useSession.getState().user;
      // this tab signed out while the refresh was on its way (the idle timeout, another tab's sign-out): it stays
      // signed out; the token the server gave a moment before the sign-out reached it ends with the session
      if (!now) return false;
      if (now.id !== res.user.id) {
        // the browser's session is now someone else's (signed in again in another tab): take it as it is
        clearTab();
        useSession.getState().adopt(res);
        return true;
      }
      useSession.getState().setToken(res.accessToken, res.expiresIn, res.user);
      return true;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

let restoring: Promise<boolean> | undefined;

/**
 * Signs this tab in with the browser's session (a new tab, a bookmark, a sign-in seen in another tab): one refresh
 * with the httpOnly cookie answers a token and the user. Screens wait meanwhile (`restoring`). False when the
 * browser holds no session (then nothing is asked, unless another tab `told` of a sign-in) or the server refused it.
 */
export function restoreSession(options: { told?: boolean } = {}): Promise<boolean> {
  const state = useSession.getState();
  if (state.verified && state.user) return Promise.resolve(true);
  // told by another tab: ask even if this tab's copy of local storage does not show the sign-in yet (storage reaches
  // other processes a moment after the message may)
  if (!options.told && !browserSignedIn()) return Promise.resolve(false);
  if (restoring) return restoring;
  let attempt: Promise<boolean> | undefined = undefined;
  attempt = (async () => {
    useSession.setState({ restoring: true });
    try {
      const res = await refreshThroughOutages();
      // the browser signed out while this was on its way (another tab's sign-out let this attempt go): the answer,
      // even a token, is of a session that ends; this tab stays signed out
      if (restoring !== attempt) return false;
      if (!res) {
        setBrowserSignedIn(false);
        return false;
      }
      useSession.getState().adopt(res);
      return true;
    } finally {
      // a sign-out heard meanwhile has let this attempt go (a later one may be under way)
      if (restoring === attempt) {
        useSession.setState({ restoring: false });
        restoring = undefined;
      }
    }
  })();
  restoring = attempt;
  return restoring;
}

/** Empties this tab: every store, session storage. */
function clearTab() {
  useSession.getState().reset();
  for (const reset of resetters) reset();
  try {
    sessionStorage.clear();
  } catch {
    // storage unavailable: nothing to clear
  }
}

/**
 * Ends the session in every tab of the browser: the server (unless it ended it itself), every store, session storage;
 * then /login, with a message when given. The other tabs are told, and show the same message, or that the person
 * signed out in another tab.
 */
export function logout(options: { message?: string; callServer?: boolean } = {}) {
  // the server ending a session this tab has already left (the stream's `ended` after another tab's sign-out reached
  // it first) changes nothing: the first words stay on the sign-in page
  if (options.callServer === false && !useSession.getState().isLoggedIn) return;
  if (options.callServer !== false) void sessionApi.logout().catch(() => undefined);
  setBrowserSignedIn(false);
  tellOtherTabs({ type: 'signed-out', ...(options.message ? { message: options.message } : {}) });
  endHere(options.message);
}

function endHere(message: string | undefined) {
  clearTab();
  flash = message;
  navigate('/login');
}

/** The words for a session the server ended: its own (SessionEnded says why), else the refresh's refusal. */
export function sessionLostMessage(err?: ApiError): string {
  if (err?.code === 'SessionEnded') return err.message;
  if (refreshRefusal?.code === 'SessionEnded') return refreshRefusal.message;
  return AUTH_MESSAGES.invalidRefresh;
}

export function installAuthHooks() {
  setAuthHooks({
    token: () => useSession.getState().user?.token,
    refresh: refreshSession,
    onSessionLost: (err) => logout({ message: sessionLostMessage(err), callServer: false }),
  });
}

let following = false;

/**
 * Follows the other tabs: a sign-out there ends this tab too (with its message); a sign-in there signs this tab in
 * (or over, when it was someone else). A sign-in here is told to them.
 */
export function followOtherTabs() {
  if (following) return;
  following = true;
  useSession.subscribe((now, before) => {
    const signedIn = now.verified && now.user !== undefined;
    const was = before.verified && before.user !== undefined;
    if (signedIn && (!was || before.user?.id !== now.user?.id)) {
      setBrowserSignedIn(true);
      tellOtherTabs({ type: 'signed-in', userId: now.user!.id });
    }
  });
  listenToOtherTabs((message) => {
    const { verified, user } = useSession.getState();
    if (message.type === 'signed-out') {
      // signed in, or still signing itself in (its refresh may wait through an outage, or answer with the session that
      // is ending): to the sign-in page now, with the other tab's words
      if ((verified && user) || useSession.getState().restoring) {
        restoring = undefined;
        useSession.setState({ restoring: false });
        endHere(message.message ?? sessionEndMessage('logout'));
      }
      return;
    }
    if (verified && user?.id === message.userId) return;
    if (verified) clearTab();
    void restoreSession({ told: true }).then((ok) => ok && navigate('/'));
  });
}
