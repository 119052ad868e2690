import { describe, expect, it } from 'vitest';
import { createKeyLimiter } from './rate-limit.ts';

/** The shared counter in memory, with the repository's semantics: one window per key, counted by what is taken. */
function counter() {
  const windows = new Map<string, { hits: number; window_ends: Date }>();
  const taken: number[] = [];
  return {
    taken,
    async hit(key: string, windowMs: number, now: Date, count = 1) {
      taken.push(count);
      const w = windows.get(key);
      const next = !w || w.window_ends <= now ? { hits: count, window_ends: new Date(now.getTime() + windowMs) } : { ...w, hits: w.hits + count };
      windows.set(key, next);
      return next;
    },
  };
}

async function spend(limiter: ReturnType<typeof createKeyLimiter>, calls: number, now: number) {
  let allowed = 0;
  for (let i = 0; i < calls; i++) if ((await limiter.check('k', now)).allowed) allowed++;
  return allowed;
}

describe('the per-key limit’s shares', () => {
  it('takes 1/50th of the limit per counter write: 20 calls at the default 1,000, up to 500 for a raised limit', async () => {
    for (const [limit, share] of [
      [1000, 20],
      [200, 4],
      [60_000, 500],
      [1_000_000_000, 500],
    ] as const) {
      const repo = counter();
      const limiter = createKeyLimiter({ repo, limit, windowMs: 60_000, prefix: 'api-key:' });
      expect(await spend(limiter, 1000, 0)).toBe(Math.min(1000, limit));
      expect(new Set(repo.taken), `limit ${limit}`).toEqual(new Set([share]));
      // once the window is full it is refused locally, without another write
      expect(repo.taken.length).toBe(Math.ceil(Math.min(1000, limit) / share));
    }
  });

  it('never serves more than the limit across instances sharing the counter; what one leaves unspent is within 2%', async () => {
    const repo = counter();
    const a = createKeyLimiter({ repo, limit: 60_000, windowMs: 60_000, prefix: 'api-key:' });
    const b = createKeyLimiter({ repo, limit: 60_000, windowMs: 60_000, prefix: 'api-key:' });
    let served = 0;
    for (let i = 0; i < 700; i++) served += (await spend(a, 50, 0)) + (await spend(b, 50, 0));
    expect(served).toBeLessThanOrEqual(60_000);
    expect(served).toBeGreaterThanOrEqual(60_000 * 0.96);
    // the next window starts afresh
    expect(await spend(a, 10, 60_000)).toBe(10);
  });
});
