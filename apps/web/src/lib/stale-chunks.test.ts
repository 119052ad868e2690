import { describe, expect, it, vi } from 'vitest';
import { STALE_CHUNK_RELOAD_MS, reloadOnStaleChunks } from './stale-chunks.ts';

const CHUNK = 'http://portal.test/assets/settings-2iZXciLe.js';

/** A tab: its events, its sessionStorage (kept across reloads, as a tab's is), the server's answer and the reloads. */
function tab(answer: () => Promise<{ status: number }>) {
  const target = new EventTarget();
  const stored = new Map<string, string>();
  let clock = 1_000_000;
  const reload = vi.fn();
  const asked: string[] = [];
  const win = {
    addEventListener: target.addEventListener.bind(target),
    sessionStorage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) } as Storage,
    location: { reload },
  };
  reloadOnStaleChunks(
    win,
    (url) => {
      asked.push(url);
      return answer();
    },
    () => clock,
  );
  /** what Vite does when a lazy chunk fails to load (Chrome's message names the file); answers whether it was cancelled */
  const missingChunk = async (message = `Failed to fetch dynamically imported module: ${CHUNK}`) => {
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: new TypeError(message) });
    target.dispatchEvent(event);
    await new Promise((resolve) => setTimeout(resolve, 0));
    return event.defaultPrevented;
  };
  return { reload, asked, missingChunk, later: (ms: number) => (clock += ms) };
}

describe('a screen whose code another release renamed (a rolling deploy)', () => {
  it('loads the tab again when the server answers that the file is not there; the error goes on meanwhile', async () => {
    const t = tab(async () => ({ status: 404 }));
    expect(await t.missingChunk()).toBe(false);
    expect(t.asked).toEqual([CHUNK]);
    expect(t.reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload when the server cannot be reached (the portal says Reconnecting... instead)', async () => {
    const t = tab(() => Promise.reject(new TypeError('Failed to fetch')));
    await t.missingChunk();
    expect(t.reload).not.toHaveBeenCalled();
  });

  it('does not reload when the file is there after all', async () => {
    const t = tab(async () => ({ status: 200 }));
    await t.missingChunk();
    expect(t.reload).not.toHaveBeenCalled();
  });

  it('asks whether the server is up when the message names no file (Safari), and reloads if it is', async () => {
    const t = tab(async () => ({ status: 200 }));
    await t.missingChunk('Importing a module script failed.');
    expect(t.asked).toEqual(['/healthz']);
    expect(t.reload).toHaveBeenCalledTimes(1);
  });

  it('does not loop: a chunk still missing after the reload shows the error, until a minute has passed', async () => {
    const t = tab(async () => ({ status: 404 }));
    await t.missingChunk();
    t.later(5_000);
    await t.missingChunk();
    expect(t.reload).toHaveBeenCalledTimes(1);
    t.later(STALE_CHUNK_RELOAD_MS);
    await t.missingChunk();
    expect(t.reload).toHaveBeenCalledTimes(2);
  });
});
