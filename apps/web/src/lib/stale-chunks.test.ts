import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STALE_CHUNK_RELOAD_MS, reloadOnStaleChunks } from './stale-chunks.ts';

/** A tab: its events, its sessionStorage (kept across reloads, as a tab's is) and how often it reloaded. */
function tab(start = 1_000_000) {
  const target = new EventTarget();
  const stored = new Map<string, string>();
  let clock = start;
  const reload = vi.fn();
  const win = {
    addEventListener: target.addEventListener.bind(target),
    sessionStorage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) } as Storage,
    location: { reload },
  };
  reloadOnStaleChunks(win, () => clock);
  /** what Vite does when a lazy chunk fails to load: a cancelable event; answers whether the error was taken over */
  const missingChunk = () => {
    const event = new Event('vite:preloadError', { cancelable: true });
    target.dispatchEvent(event);
    // the reload waits for the router to move to the screen asked for
    vi.runAllTimers();
    return event.defaultPrevented;
  };
  return { reload, missingChunk, later: (ms: number) => (clock += ms) };
}

describe('a screen whose code another release renamed (a rolling deploy)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  it('loads the tab again, and keeps the error from showing', () => {
    const t = tab();
    expect(t.missingChunk()).toBe(true);
    expect(t.reload).toHaveBeenCalledTimes(1);
  });

  it('does not loop: a chunk still missing after the reload shows the error, until a minute has passed', () => {
    const t = tab();
    t.missingChunk();
    t.later(5_000);
    expect(t.missingChunk()).toBe(false);
    expect(t.reload).toHaveBeenCalledTimes(1);
    t.later(STALE_CHUNK_RELOAD_MS);
    expect(t.missingChunk()).toBe(true);
    expect(t.reload).toHaveBeenCalledTimes(2);
  });
});
