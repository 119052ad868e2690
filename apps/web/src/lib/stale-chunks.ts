/** When this tab last loaded itself again for a screen's missing code (sessionStorage: one tab's, kept across the reload). */
const RELOADED_AT = 'portal:stale-chunk-reload';
/** A tab loads itself again at most once in this long: code missing for another reason shows the screen's error. */
export const STALE_CHUNK_RELOAD_MS = 60_000;

type Win = Pick<Window, 'addEventListener' | 'sessionStorage'> & { location: Pick<Location, 'reload'> };

/**
 * A rolling deploy: this page's code is of one release, and the instance that answers for a screen's code (a lazy
 * chunk) may already run the next release (or, in a rollback, the one before), whose files have other names: the chunk
 * is not found. Vite then dispatches `vite:preloadError`; the tab loads itself again on the screen asked for, and so
 * gets the release the instances now run, instead of showing an error on a screen that works.
 */
export function reloadOnStaleChunks(win: Win = window, now: () => number = Date.now) {
  win.addEventListener('vite:preloadError', (event) => {
    let last = 0;
    try {
      last = Number(win.sessionStorage.getItem(RELOADED_AT) ?? 0);
      if (now() - last < STALE_CHUNK_RELOAD_MS) return;
      win.sessionStorage.setItem(RELOADED_AT, String(now()));
    } catch {
      // no storage (a private window's quota): reload all the same; a loop is bounded by the deploy
    }
    event.preventDefault();
    // after the router has moved to the screen asked for: the reload opens that screen, not the one left
    setTimeout(() => win.location.reload(), 0);
  });
}
