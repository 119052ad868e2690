export type IdleTimerOptions = {
  warnAfterMs: number;
  logoutAfterMs: number;
  /** when the person last did something (ms since the epoch), in any tab of the browser */
  lastActivity(): number;
  /** each second of the warning, with the whole seconds left before the logout */
  onWarn(secondsLeft: number): void;
  /** the warning no longer applies: someone was active (here or in another tab) */
  onActive(): void;
  onLogout(): void;
  /** how often the count is checked (ms) */
  tickMs?: number;
  now?: () => number;
};

/**
 * Inactivity (portal-core §4), counted for the whole browser: `lastActivity` is shared by its tabs, so activity in
 * any tab keeps every tab signed in. After warnAfterMs without activity onWarn, once a second with the seconds left
 * (the countdown); after a further logoutAfterMs onLogout, once. Activity anywhere before that ends the warning.
 */
export function createIdleTimer(options: IdleTimerOptions) {
  const now = options.now ?? Date.now;
  const total = options.warnAfterMs + options.logoutAfterMs;
  let warned = false;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    const idle = now() - options.lastActivity();
    if (idle >= total) {
      stop();
      options.onLogout();
    } else if (idle >= options.warnAfterMs) {
      warned = true;
      options.onWarn(Math.ceil((total - idle) / 1000));
    } else if (warned) {
      warned = false;
      options.onActive();
    }
  };
  const handle = setInterval(check, options.tickMs ?? 1000);
  function stop() {
    stopped = true;
    clearInterval(handle);
  }
  return {
    /** checks now (a tab shown again after the browser slowed its timers) */
    check,
    stop,
  };
}
