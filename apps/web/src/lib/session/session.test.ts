import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionEndMessage } from '@portal/contract/live';
import { mockApi, apiError } from '../../testing/api-mock.ts';
import { signIn, USER_ID, PARTNER_ID } from '../../testing/factories.ts';
import { api } from '../api-client.ts';
import { tryNow } from '../connection.ts';
import { followOtherTabs, installAuthHooks, logout, refreshSession, restoreSession, setNavigator, takeFlash } from './session.ts';
import { useSession } from './session-store.ts';
import { browserSignedIn, resetTabs, setBrowserSignedIn } from './tabs.ts';

const user = { id: USER_ID, name: 'Ada Admin', email: 'admin@acme.test', role: 'admin' as const, partnerId: PARTNER_ID, status: 'active' as const };
const refreshed = (role: 'admin' | 'view' = 'admin') => ({ body: { accessToken: 'fresh', expiresIn: 900, refreshToken: 'r2', user: { ...user, role } } });

/** Another tab of the same browser, as the session module's channel hears it. */
function otherTab() {
  const channel = new BroadcastChannel('portal-session');
  const heard: unknown[] = [];
  channel.onmessage = (e) => heard.push(e.data);
  return { post: (m: unknown) => channel.postMessage(m), heard, close: () => channel.close() };
}
const INACTIVITY = 'You were logged out after a period of inactivity.';
/** Another tab that signs out for inactivity, with its words. */
function otherTabSignsOut() {
  const tab = otherTab();
  tab.post({ type: 'signed-out', message: INACTIVITY });
  return tab;
}
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('one session per browser', () => {
  let went: string[];
  beforeEach(() => {
    went = [];
    setNavigator((to) => went.push(to));
    installAuthHooks();
    followOtherTabs();
    localStorage.clear();
  });
  afterEach(() => {
    resetTabs();
    followOtherTabs();
    localStorage.clear();
  });

  it('a new tab of a signed-in browser signs itself in with the refresh cookie, and waits meanwhile', async () => {
    setBrowserSignedIn(true);
    const api = mockApi({ 'POST users/refresh': refreshed() });
    const restoring = restoreSession();
    expect(useSession.getState().restoring).toBe(true);
    expect(await restoring).toBe(true);
    expect(useSession.getState()).toMatchObject({ verified: true, isLoggedIn: true, restoring: false, user: { id: USER_ID, token: 'fresh', role: 'admin' } });
    expect(api.to('POST users/refresh')).toHaveLength(1);
  });

  it('asks nothing when the browser holds no session, and forgets one the server refuses', async () => {
    const api = mockApi({ 'POST users/refresh': apiError(401, 'SessionEnded', sessionEndMessage('expired')) });
    expect(await restoreSession()).toBe(false);
    expect(api.calls).toEqual([]);
    setBrowserSignedIn(true);
    expect(await restoreSession()).toBe(false);
    expect(browserSignedIn()).toBe(false);
    expect(useSession.getState().verified).toBe(false);
  });

  it('a logout tells the other tabs, which sign out with words', async () => {
    signIn('admin');
    mockApi({ 'POST users/logout': { body: { message: 'ok' } } });
    const tab = otherTab();
    logout();
    await until(() => tab.heard.length > 0);
    expect(tab.heard).toEqual([{ type: 'signed-out' }]);
    expect(browserSignedIn()).toBe(false);
    tab.close();
  });

  it("another tab's sign-out ends this one with its message", async () => {
    signIn('admin');
    const tab = otherTabSignsOut();
    await until(() => went.length > 0);
    expect(went).toEqual(['/login']);
    expect(useSession.getState().verified).toBe(false);
    expect(takeFlash()).toBe(INACTIVITY);
    tab.close();
  });

  it("keeps the first words: the stream's `ended` after another tab's sign-out changes nothing", async () => {
    signIn('admin');
    const tab = otherTabSignsOut();
    await until(() => went.length > 0);
    logout({ message: sessionEndMessage('logout'), callServer: false });
    expect(went).toEqual(['/login']);
    expect(takeFlash()).toBe(INACTIVITY);
    tab.close();
  });

  it('a refresh still on its way when the tab signs out does not sign it back in', async () => {
    signIn('admin');
    let answer: ((reply: ReturnType<typeof refreshed>) => void) | undefined;
    mockApi({
      'POST users/refresh': () => new Promise((resolve) => (answer = resolve)),
      'POST users/logout': { body: { message: 'ok' } },
    });
    const refreshing = refreshSession();
    await until(() => answer !== undefined);
    logout({ message: INACTIVITY });
    answer!(refreshed());
    expect(await refreshing).toBe(false);
    expect(useSession.getState()).toMatchObject({ verified: false, isLoggedIn: false, user: undefined });
    expect(went).toEqual(['/login']);
    expect(takeFlash()).toBe(INACTIVITY);
  });

  it('a tab still signing itself in when another tab signs out goes to the sign-in page with its words, and is not signed back in', async () => {
    setBrowserSignedIn(true);
    let answer: ((reply: ReturnType<typeof refreshed>) => void) | undefined;
    mockApi({ 'POST users/refresh': () => new Promise((resolve) => (answer = resolve)) });
    const restoring = restoreSession();
    await until(() => answer !== undefined);
    expect(useSession.getState().restoring).toBe(true);
    const tab = otherTabSignsOut();
    // at once: no wait for the refresh, which the server may hold (an outage) or still answer with the old session
    await until(() => went.includes('/login'));
    expect(useSession.getState()).toMatchObject({ restoring: false, verified: false, user: undefined });
    answer!(refreshed());
    expect(await restoring).toBe(false);
    expect(useSession.getState()).toMatchObject({ verified: false, isLoggedIn: false, user: undefined });
    expect(takeFlash()).toBe(INACTIVITY);
    tab.close();
  });

  it("another tab's sign-in signs this tab in (it was on the sign-in page)", async () => {
    mockApi({ 'POST users/refresh': refreshed() });
    const tab = otherTab();
    // this tab's copy of local storage may not show the sign-in yet when the message comes: it asks anyway
    tab.post({ type: 'signed-in', userId: USER_ID });
    await until(() => went.includes('/'));
    expect(useSession.getState().user?.token).toBe('fresh');
    tab.close();
  });

  it('a sign-in here is told to the other tabs', async () => {
    const tab = otherTab();
    signIn('admin');
    await until(() => tab.heard.length > 0);
    expect(tab.heard).toEqual([{ type: 'signed-in', userId: USER_ID }]);
    expect(browserSignedIn()).toBe(true);
    tab.close();
  });

  it('a refresh waits through an outage and takes the role the server says now', async () => {
    signIn('admin');
    let away = true;
    const api = mockApi({
      'POST users/refresh': () => (away ? apiError(503, 'ServiceUnavailable', 'away') : refreshed('view')),
      'GET /readyz': () => (away ? apiError(503, 'ServiceUnavailable', 'away') : { body: { status: 'ok' } }),
    });
    const done = refreshSession();
    await until(() => api.to('POST users/refresh').length === 1);
    away = false;
    tryNow();
    expect(await done).toBe(true);
    expect(useSession.getState().user).toMatchObject({ token: 'fresh', role: 'view' });
    expect(went).toEqual([]);
  });

  it('a call whose session ended, and which a refresh cannot cure, signs out with the reason in words', async () => {
    signIn('admin');
    mockApi({
      'GET partner/accounts': apiError(401, 'TokenExpired', 'Your session has expired.'),
      'POST users/refresh': apiError(401, 'SessionEnded', 'You no longer have access to Acme Remit.'),
    });
    await expect(api.get('partner/accounts')).rejects.toMatchObject({ code: 'TokenExpired' });
    expect(went).toEqual(['/login']);
    expect(takeFlash()).toBe('You no longer have access to Acme Remit.');
  });
});
