import { create } from 'zustand';
import { PORTAL_MODE_HEADER } from '@portal/contract/test-mode';
import { localStore } from './local-store.ts';

/**
 * Where this browser keeps whether "Viewing test data" is on (localStorage: a reload, and a new tab, show the same
 * side at once). Logout forgets it.
 */
export const TEST_MODE_KEY = 'portal.testMode';
const ON = 'on';

function stored(): boolean {
  try {
    return localStore()?.getItem(TEST_MODE_KEY) === ON;
  } catch {
    return false;
  }
}

/**
 * The portal's test view (Stripe's test mode): while it is on, every call asks for the test side of the partner's data
 * (its balances, transactions, deposit addresses, webhooks, reports), which the sandbox processes and which is never
 * real money. Read at once from storage, so that the first render draws the side the page will show.
 */
export const useTestMode = create<{ on: boolean }>()(() => ({ on: stored() }));

/** Turns the test view on or off, here and for the next load in this browser. */
export function setTestMode(on: boolean) {
  try {
    if (on) localStore()?.setItem(TEST_MODE_KEY, ON);
    else localStore()?.removeItem(TEST_MODE_KEY);
  } catch {
    // storage full or refused: this page still shows the side chosen; the next load shows the live side
  }
  if (useTestMode.getState().on !== on) useTestMode.setState({ on });
}

/** Logout forgets it, as it forgets the remembered partner: the next sign-in starts on the live side. */
export function forgetTestMode() {
  setTestMode(false);
}

/** The header that asks the server for the test side while the test view is on (none on the live side). */
export function testModeHeaders(): Record<string, string> {
  return useTestMode.getState().on ? { [PORTAL_MODE_HEADER]: 'test' } : {};
}

/**
 * Another tab of this browser turning the test view on or off: this one follows (the choice is the browser's, as a
 * reload would read it). Answers a function that stops listening.
 */
export function followOtherTabsTestMode(): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const heard = (e: StorageEvent) => {
    // a key of its own, or the whole storage cleared
    if (e.key !== TEST_MODE_KEY && e.key !== null) return;
    const on = e.key === null ? stored() : e.newValue === ON;
    if (useTestMode.getState().on !== on) useTestMode.setState({ on });
  };
  window.addEventListener('storage', heard);
  return () => window.removeEventListener('storage', heard);
}
