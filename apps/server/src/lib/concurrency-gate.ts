/** A function that runs `fn` the first time it is called, and does nothing after. */
const once = (fn: () => void) => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
};

/** One fewer for `key`; the key goes at zero. */
const countDown = (counts: Map<string, number>, key: string) => {
  const now = (counts.get(key) ?? 1) - 1;
  if (now > 0) counts.set(key, now);
  else counts.delete(key);
};

/**
 * A bound on work that runs at once in this process: at most `perKey` for one key (a partner) and `total` in all.
 * `enter` answers the function that leaves, or undefined when either bound is reached (the caller answers 429).
 */
export function concurrencyGate({ perKey, total }: { perKey: number; total: number }) {
  const running = new Map<string, number>();
  let all = 0;
  return {
    enter(key: string): (() => void) | undefined {
      const mine = running.get(key) ?? 0;
      if (mine >= perKey || all >= total) return undefined;
      running.set(key, mine + 1);
      all++;
      return once(() => {
        all--;
        countDown(running, key);
      });
    },
    /** how many run now, in all */
    get running() {
      return all;
    },
  };
}

/**
 * Turns per key (a partner): at most `perKey` hold one at once; the next wait in the order they came, each at most
 * `waitMs`, and at most `queue` wait per key. `enter` answers the function that gives the turn back (to the next one
 * waiting), or undefined when the wait ran out or the queue was full (the caller answers 429).
 */
export function turnsPerKey({ perKey, waitMs, queue }: { perKey: number; waitMs: number; queue: number }) {
  const holding = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  const release = (key: string) => {
    const next = waiting.get(key)?.shift();
    if (waiting.get(key)?.length === 0) waiting.delete(key);
    // the turn passes straight on: the holder count stays
    if (next) return next();
    countDown(holding, key);
  };
  const leaver = (key: string) => once(() => release(key));
  return {
    async enter(key: string): Promise<(() => void) | undefined> {
      const held = holding.get(key) ?? 0;
      if (held < perKey) {
        holding.set(key, held + 1);
        return leaver(key);
      }
      const line = waiting.get(key) ?? [];
      if (line.length >= queue) return undefined;
      waiting.set(key, line);
      const granted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          const at = line.indexOf(take);
          if (at >= 0) line.splice(at, 1);
          if (line.length === 0 && waiting.get(key) === line) waiting.delete(key);
          resolve(false);
        }, waitMs);
        const take = () => {
          clearTimeout(timer);
          resolve(true);
        };
        line.push(take);
      });
      return granted ? leaver(key) : undefined;
    },
    /** how many hold a turn and how many wait, for a key */
    state(key: string) {
      return { holding: holding.get(key) ?? 0, waiting: waiting.get(key)?.length ?? 0 };
    },
  };
}
