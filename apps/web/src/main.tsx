import './lib/csp.ts';
import { reloadOnStaleChunks } from './lib/stale-chunks.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers, queryClient } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { followOtherTabs, installAuthHooks, onLogout, restoreSession, setNavigator } from './lib/session/session.ts';
import { useSession } from './lib/session/session-store.ts';
import { profileQuery } from './lib/partner/profile.ts';
import { beginStart, forgetStart } from './lib/start.ts';
import { nextTask } from './lib/next-task.ts';
import { LanguageScope, initialLanguage, onLanguageChange, setLanguage } from './lib/i18n.ts';
import { forgetPartner } from './lib/partner/remembered.ts';
import { forgetTestMode } from './lib/test-mode.ts';
import { followTestMode } from './lib/test-mode-reset.ts';
import { useBanners } from './features/banners/low-balance.ts';
import { useReviewBanners } from './features/wallets/review-banners.ts';
import './index.css';

// a screen's code missing during a rolling deploy (another release's files): the tab loads itself again
reloadOnStaleChunks();

// the language this browser last chose, else its own: French loads its catalogues (one chunk) while the rest starts
const language = setLanguage(initialLanguage());

// the modules above are evaluated in the task that ran the entry; what follows runs in tasks of its own, so that no
// piece holds a phone's main thread long: the session and the start call (first, to be on the network soonest), then
// the router (ranking the route table), then its first navigation
await nextTask();
installAuthHooks();
followOtherTabs();
onLogout(() => queryClient.clear());
// what the server wrote in the former language (the bell, messages) is asked for again in the new one
onLanguageChange(() => void queryClient.invalidateQueries());
onLogout(forgetStart);
onLogout(forgetPartner);
onLogout(forgetTestMode);
// the test view switched on or off (here or in another tab): what was read of the other side is asked for again
followTestMode(queryClient);
onLogout(() => useBanners.getState().reset());
onLogout(() => useReviewBanners.getState().reset());
// a reload while signed in: ask for the start data (the partner, which the guard waits for, balances, banners, the
// request-forgery token) while the screen's chunks load; a new tab of a signed-in browser signs itself in with the
// browser's session first (the screens wait meanwhile)
const start = () => {
  beginStart();
  void queryClient.prefetchQuery(profileQuery);
};
const signedIn = (s: ReturnType<typeof useSession.getState>) => s.verified && s.user !== undefined;
// a sign-in in this tab, or this tab taking the browser's session, asks for it too
useSession.subscribe((now, before) => {
  if (signedIn(now) && !signedIn(before)) start();
});
if (signedIn(useSession.getState())) start();
else void restoreSession();

await nextTask();
const router = createRouter();
setNavigator((to) => void router.navigate(to, { replace: true }));
await nextTask();
router.initialize();

// the first render waits for the route's screen and frame (lazy modules): until then the router would draw nothing,
// and the page shows the server's frame and skeleton, which this render replaces with the same. It is a transition:
// React yields to the browser every few milliseconds instead of holding the page in one long task.
await new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    resolve();
  });
});
await language;
startTransition(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <LanguageScope>
          <RouterProvider router={router} />
        </LanguageScope>
      </Providers>
    </StrictMode>,
  ),
);
