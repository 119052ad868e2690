/** Milliseconds from `now` to the next hour boundary. */
export const msToNextHour = (now: number) => 3_600_000 - (now % 3_600_000);

/**
 * Runs `task` at the next hour boundary and hourly after (portal-core §1: the shared data load also runs at start,
 * which the queries do on their own). Returns a stop function.
 */
export function everyHourOnTheHour(task: () => void, now = Date.now()): () => void {
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    task();
    interval = setInterval(task, 3_600_000);
  }, msToNextHour(now));
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
