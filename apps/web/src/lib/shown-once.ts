import { useState } from 'react';

/**
 * True from the first render at which `ready` was, and then for good: a screen drawn once its data is in stays
 * drawn when that data is read again (a refetch after a failure makes a query pending once more).
 */
export function useShownOnce(ready: boolean): boolean {
  const [shown, setShown] = useState(ready);
  if (ready && !shown) setShown(true);
  return shown || ready;
}
