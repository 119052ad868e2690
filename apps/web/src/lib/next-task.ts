/**
 * A task of its own for what follows: the browser's `scheduler.yield()` where it has one (the rest runs before other
 * work queued meanwhile, but after the browser has painted and answered input), else a timer. For start-up work that,
 * done in one piece, would hold a phone's main thread in one long task.
 */
export function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
