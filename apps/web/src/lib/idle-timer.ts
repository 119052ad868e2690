export type IdleTimerOptions = {
  warnAfterMs: number;
  logoutAfterMs: number;
  onWarn(): void;
  onLogout(): void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
};

/**
 * Inactivity (portal-core §4): after warnAfterMs without activity onWarn; after a further logoutAfterMs without
 * activity onLogout. Any activity, or dismissing the warning, starts the count again.
 */
export function createIdleTimer(options: IdleTimerOptions) {
  const set = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clear = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let handle: unknown;
  let stopped = false;

  const arm = (ms: number, fn: () => void) => {
    if (handle !== undefined) clear(handle);
    handle = set(fn, ms);
  };
  const start = () => {
    if (stopped) return;
    arm(options.warnAfterMs, () => {
      options.onWarn();
      arm(options.logoutAfterMs, () => {
        handle = undefined;
        options.onLogout();
      });
    });
  };

  start();
  return {
    /** activity, or the warning closed: count again from zero */
    reset: start,
    stop() {
      stopped = true;
      if (handle !== undefined) clear(handle);
      handle = undefined;
    },
  };
}
