import type { Query, QueryClient } from '@tanstack/react-query';
import { profileQuery } from './partner/profile.ts';
import { forgetStart } from './start.ts';
import { followOtherTabsTestMode, useTestMode } from './test-mode.ts';

/**
 * What is the account's whatever the view, and what the frame waits for: the profile (partner, flags, the user) and the
 * user's own preferences (time zone, language). Kept across a switch, so that the frame does not go back to its
 * skeleton; everything else is read again.
 */
function sameInBothViews(query: Query): boolean {
  const [first, second] = query.queryKey;
  return (first === profileQuery.queryKey[0] && second === profileQuery.queryKey[1]) || first === 'user';
}

/**
 * Switching between the live and the test view forgets what the portal read of the other side: the start data not
 * taken yet (its balances were the other side's) and every query's data, so that each screen on show asks again, at
 * once, with the view's header (a query of a screen not on show asks when it opens). Calls of the other side still
 * under way are let go. Another tab's switch is followed too. Answers a function that stops following.
 */
export function followTestMode(queryClient: QueryClient): () => void {
  const stopTabs = followOtherTabsTestMode();
  const stopSwitch = useTestMode.subscribe((now, before) => {
    if (now.on === before.on) return;
    forgetStart();
    void queryClient.resetQueries({ predicate: (query) => !sameInBothViews(query) });
  });
  return () => {
    stopTabs();
    stopSwitch();
  };
}
