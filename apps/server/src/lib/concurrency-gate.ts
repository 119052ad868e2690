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
      let left = false;
      return () => {
        if (left) return;
        left = true;
        all--;
        const now = (running.get(key) ?? 1) - 1;
        if (now > 0) running.set(key, now);
        else running.delete(key);
      };
    },
    /** how many run now, in all */
    get running() {
      return all;
    },
  };
}
