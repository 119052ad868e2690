import './lib/csp.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers, queryClient } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { followOtherTabs, installAuthHooks, onLogout, restoreSession, setNavigator } from './lib/session/session.ts';
import { useSession } from './lib/session/session-store.ts';
import { profileQuery } from './lib/partner/profile.ts';
import { useBanners } from './features/banners/low-balance.ts';
import { useReviewBanners } from './features/wallets/review-banners.ts';
import './index.css';

const router = createRouter();
setNavigator((to) => void router.navigate(to, { replace: true }));
installAuthHooks();
followOtherTabs();
onLogout(() => queryClient.clear());
onLogout(() => useBanners.getState().reset());
onLogout(() => useReviewBanners.getState().reset());
// a reload while signed in: ask for the partner (which the guard waits for) while the screen's chunks load; a new
// tab of a signed-in browser signs itself in with the browser's session first (the screens wait meanwhile)
if (useSession.getState().verified && useSession.getState().user) void queryClient.prefetchQuery(profileQuery);
else
  void restoreSession().then((ok) => {
    if (ok) void queryClient.prefetchQuery(profileQuery);
  });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
