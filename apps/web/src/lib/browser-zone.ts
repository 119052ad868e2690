import { useSyncExternalStore } from 'react';
import { browserTimeZone } from './time-zone.tsx';

let zone: string | undefined;
let asked = false;
const listeners = new Set<() => void>();

function settle(found: string) {
  zone = found;
  listeners.forEach((listener) => listener());
}

/**
 * Asks a worker for the browser's zone, once per page: the first lookup of a zone name costs tens of milliseconds on
 * a phone (the browser loads its zone data), which would otherwise land in the signed-in screen's first render.
 * Without workers, or should the worker fail, the page looks it up itself.
 */
function ask() {
  if (asked) return;
  asked = true;
  if (typeof Worker === 'undefined') return settle(browserTimeZone());
  try {
    const worker = new Worker(new URL('./browser-zone.worker.ts', import.meta.url), { type: 'module' });
    // its answer, or (no answer: it failed) the page's own lookup
    const finish = (answer: unknown) => {
      worker.terminate();
      settle(typeof answer === 'string' && answer ? answer : browserTimeZone());
    };
    worker.onmessage = (event: MessageEvent<unknown>) => finish(event.data);
    worker.onerror = () => finish(undefined);
  } catch {
    settle(browserTimeZone());
  }
}

/** The browser's time zone, once known (undefined for the moment it takes a worker to say). */
export function useBrowserTimeZone(): string | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      ask();
      return () => void listeners.delete(listener);
    },
    () => zone,
    () => zone,
  );
}

/** Forgets the zone found (tests: each one's browser may be in another zone). */
export function forgetBrowserTimeZone() {
  zone = undefined;
  asked = false;
}
