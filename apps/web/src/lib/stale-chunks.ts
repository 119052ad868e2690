/** When this tab last loaded itself again for a screen's missing code (sessionStorage: one tab's, kept across the reload). */
const RELOADED_AT = 'portal:stale-chunk-reload';
/** A tab loads itself again at most once in this long: code missing for another reason shows the screen's error. */
export const STALE_CHUNK_RELOAD_MS = 60_000;

type Win = Pick<Window, 'addEventListener' | 'sessionStorage'> & { location: Pick<Location, 'reload'> };
type Probe = (url: string) => Promise<{ status: number }>;

/** The file a failed import names (Chrome and Firefox put its address in the message; Safari does not). */
function fileOf(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+?\.(?:js|css))\b/.exec(message)?.[1];
}

/**
 * A rolling deploy: this page's code is of one release, and the instance that answers for a screen's code (a lazy
 * chunk) may already run the next release (or, in a rollback, the one before), whose files have other names: the chunk
 * is not found. Vite then dispatches `vite:preloadError`. The error goes on to the screen as before; meanwhile the
 * file is asked for again, and when the server answers that it has no such file (404), the tab loads itself again on
 * the screen asked for, and so gets the release the instances now run. When the server cannot be reached, nothing is
 * reloaded (a reload would trade the portal's "Reconnecting..." for the browser's error page). At most once a minute.
 */
export function reloadOnStaleChunks(
  win: Win = window,
  probe: Probe = (url) => fetch(url, { method: 'HEAD', cache: 'no-store' }),
  now: () => number = Date.now,
) {
  win.addEventListener('vite:preloadError', (event) => {
    const file = fileOf((event as Event & { payload?: unknown }).payload);
    void probe(file ?? '/healthz').then(
      (res) => {
        // the file is gone (another release); without a file named, the server is there and the code still failed
        const stale = file ? res.status === 404 : res.status === 200;
        if (!stale) return;
        try {
          if (now() - Number(win.sessionStorage.getItem(RELOADED_AT) ?? 0) < STALE_CHUNK_RELOAD_MS) return;
          win.sessionStorage.setItem(RELOADED_AT, String(now()));
        } catch {
          // no storage (a private window's quota): reload all the same; a loop is bounded by the deploy
        }
        win.location.reload();
      },
      () => undefined,
    );
  });
}
