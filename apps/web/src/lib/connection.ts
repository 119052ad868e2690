import { create } from 'zustand';

/**
 * The portal's link to the server, shared by every call of this tab. A call that gets no reply, or a 502/503/504
 * (the server or its database away for a moment), reports an outage here instead of failing the screen or the
 * session: the tab shows "Reconnecting...", reads wait for the link to come back and are then sent again, and one
 * probe (`GET /readyz`, no sign-in needed) tries the server on a backoff: 1 s, 2 s, 3 s, then every 5 s, or
 * when the server's `Retry-After` says. "Try now" probes at once.
 */
export type ConnectionState =
  | { status: 'online' }
  | {
      status: 'reconnecting';
      /** ms since the epoch: when the link was lost */
      since: number;
      /** ms since the epoch: the next probe */
      nextTryAt: number;
      /** probes tried so far */
      attempt: number;
    };

export const RECONNECT_DELAYS_MS = [1000, 2000, 3000, 5000] as const;
/** The longest wait between two probes, whatever `Retry-After` asks. */
const MAX_DELAY_MS = 30_000;
const PROBE_PATH = '/readyz';

export const useConnection = create<ConnectionState>(() => ({ status: 'online' }));

let waiting: Array<() => void> = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let probing = false;
const onlineListeners = new Set<() => void>();

/** Called once each time the link comes back (the frame refetches what is on screen). */
export function onReconnected(listener: () => void): () => void {
  onlineListeners.add(listener);
  return () => void onlineListeners.delete(listener);
}

function delayFor(attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds >= 0) return Math.min(Math.max(retryAfterSeconds * 1000, 1000), MAX_DELAY_MS);
  return RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
}

function schedule(at: number) {
  clearTimeout(timer);
  timer = setTimeout(() => void probe(), Math.max(0, at - Date.now()));
}

/** A call found the server away. Several calls failing together count as one attempt. */
export function reportOutage(retryAfterSeconds?: number) {
  const state = useConnection.getState();
  const now = Date.now();
  if (state.status === 'reconnecting') {
    // a probe is already due: the calls that failed meanwhile wait for it
    if (now < state.nextTryAt || probing) return;
    const nextTryAt = now + delayFor(state.attempt, retryAfterSeconds);
    useConnection.setState({ ...state, nextTryAt });
    return schedule(nextTryAt);
  }
  const nextTryAt = now + delayFor(0, retryAfterSeconds);
  useConnection.setState({ status: 'reconnecting', since: now, nextTryAt, attempt: 0 });
  schedule(nextTryAt);
}

/** A call got a reply: the link is back; every waiting read goes again. */
export function reportOnline() {
  if (useConnection.getState().status === 'online') return;
  clearTimeout(timer);
  timer = undefined;
  useConnection.setState({ status: 'online' }, true);
  const wake = waiting;
  waiting = [];
  wake.forEach((fn) => fn());
  onlineListeners.forEach((fn) => fn());
}

/** Resolves once the link is back (at once when it is), or when the signal aborts. */
export function untilOnline(signal?: AbortSignal): Promise<void> {
  if (useConnection.getState().status === 'online' || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      waiting = waiting.filter((fn) => fn !== done);
      resolve();
    };
    waiting.push(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Tries the server now instead of at the next scheduled probe. */
export function tryNow() {
  if (useConnection.getState().status === 'reconnecting') void probe();
}

async function probe() {
  const state = useConnection.getState();
  if (state.status !== 'reconnecting' || probing) return;
  probing = true;
  clearTimeout(timer);
  let ok = false;
  let retryAfter: number | undefined;
  try {
    const res = await fetch(PROBE_PATH, { cache: 'no-store', credentials: 'same-origin' });
    ok = res.ok;
    const header = res.headers.get('retry-after');
    if (header && /^\d+$/.test(header)) retryAfter = Number(header);
  } catch {
    ok = false;
  } finally {
    probing = false;
  }
  if (ok) return reportOnline();
  const current = useConnection.getState();
  if (current.status !== 'reconnecting') return;
  const attempt = current.attempt + 1;
  const nextTryAt = Date.now() + delayFor(attempt, retryAfter);
  useConnection.setState({ ...current, attempt, nextTryAt });
  schedule(nextTryAt);
}

/** For tests: back to online, nothing scheduled. */
export function resetConnection() {
  clearTimeout(timer);
  timer = undefined;
  probing = false;
  waiting = [];
  useConnection.setState({ status: 'online' }, true);
}
