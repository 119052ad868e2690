import { startTransition, useEffect, useState } from 'react';

/**
 * False on a component's first render, true right after it, in a transition (a render of its own that yields to
 * the browser). For parts that need not exist when the screen first draws, and whose mount would cost the first
 * commit: a Radix popover sets its anchor in a layout effect, an update React runs at once, in the same task, after
 * first running every pending effect of the screen. Mounted later, that update and its effects are the popover's
 * only.
 */
export function useAfterStart(): [boolean, () => void] {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  return [ready, () => setReady(true)];
}
