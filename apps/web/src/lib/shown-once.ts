import { useDeferredValue, useState } from 'react';

/** True from the first render at which `value` was, and then for good. */
export function useOnceTrue(value: boolean): boolean {
  const [was, setWas] = useState(value);
  if (value && !was) setWas(true);
  return was || value;
}

/**
 * True from the first render at which `ready` was, and then for good: a screen drawn once its data is in stays
 * drawn when that data is read again (a refetch after a failure makes a query pending once more).
 *
 * The turn to true comes in a deferred render: the data arrives as a store update, which React renders at once and
 * in one piece, and the whole screen drawn in that task would hold the page; a deferred render yields to the browser
 * every few milliseconds. Until it is done the caller's skeleton stays. Ready at the first render, it is true at once.
 */
export function useShownOnce(ready: boolean): boolean {
  return useDeferredValue(useOnceTrue(ready));
}
