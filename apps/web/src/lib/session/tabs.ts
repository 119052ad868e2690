import { localStore } from '../local-store.ts';

/**
 * One session per browser: the tabs and windows of a browser share it. They tell each other of a sign-in and a
 * sign-out (a `BroadcastChannel`, or where there is none the `storage` event of a local-storage key), and keep in
 * local storage whether the browser is signed in (so that a new tab asks the server for its token, with the
 * httpOnly refresh cookie, only when there is a session to ask for) and when the person last did something in any
 * of them (the idle timeout counts for the whole browser).
 */
export type TabMessage = { type: 'signed-in'; userId: string } | { type: 'signed-out'; message?: string };

const CHANNEL = 'portal-session';
const MESSAGE_KEY = 'portal-session-message';
const SIGNED_IN_KEY = 'portal-signed-in';
const ACTIVITY_KEY = 'portal-last-activity';

const listeners = new Set<(message: TabMessage) => void>();
let channel: BroadcastChannel | undefined;
let installed = false;

const deliver = (message: TabMessage) => listeners.forEach((fn) => fn(message));

function install() {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e: MessageEvent<TabMessage>) => deliver(e.data);
    return;
  }
  window.addEventListener('storage', (e) => {
    if (e.key !== MESSAGE_KEY || !e.newValue) return;
    try {
      deliver(JSON.parse(e.newValue) as TabMessage);
    } catch {
      // not ours
    }
  });
}

/** Tells the other tabs of this browser (never this one). */
export function tellOtherTabs(message: TabMessage) {
  install();
  if (channel) return channel.postMessage(message);
  const store = localStore();
  try {
    // a value that differs each time, so that the same message twice is two events
    store?.setItem(MESSAGE_KEY, JSON.stringify({ ...message, at: Date.now(), nonce: Math.random() }));
    store?.removeItem(MESSAGE_KEY);
  } catch {
    // storage full or refused: the other tabs learn at their next call
  }
}

/** Hears what the other tabs of this browser tell. */
export function listenToOtherTabs(listener: (message: TabMessage) => void): () => void {
  install();
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Whether this browser holds a session (a tab signed in and none signed out since). */
export function browserSignedIn(): boolean {
  return localStore()?.getItem(SIGNED_IN_KEY) === '1';
}

export function setBrowserSignedIn(on: boolean) {
  try {
    if (on) localStore()?.setItem(SIGNED_IN_KEY, '1');
    else localStore()?.removeItem(SIGNED_IN_KEY);
  } catch {
    // without storage, each tab signs in on its own
  }
}

let localActivity = 0;

/** When the person last did something in any tab of this browser (ms since the epoch; this tab's when unknown). */
export function lastActivity(): number {
  const shared = Number(localStore()?.getItem(ACTIVITY_KEY) ?? 0);
  return Math.max(localActivity, Number.isFinite(shared) ? shared : 0);
}

/** Records activity in this tab for every tab (written at most once a second, unless `force`). */
export function recordActivity(at = Date.now(), force = false) {
  if (!force && at - localActivity < 1000 && at >= localActivity) return;
  localActivity = at;
  try {
    localStore()?.setItem(ACTIVITY_KEY, String(at));
  } catch {
    // this tab's own count still holds
  }
}

/** For tests: forget this tab's own activity. */
export function resetTabs() {
  localActivity = 0;
}
