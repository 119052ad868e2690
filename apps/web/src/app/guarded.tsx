import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { toast } from '../components/ui/toast-store.ts';
import { LoadingBlock } from '../components/ui/spinner.tsx';
import { useFramePartner, useProfile } from '../lib/partner/profile.ts';
import { useSession } from '../lib/session/session-store.ts';
import { usePreferences } from '../lib/time-zone.tsx';
import { guard, guardRefusal, homePath, type GuardRule } from './guard.ts';
import type { RouteMeta } from './routes.ts';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

/** Whether the guard's rules for this route read the partner (its kind, its flags), not only the session. */
const readsPartner = (meta: RouteMeta) => meta.area !== 'shared' || meta.featureFlag !== undefined;

/**
 * Opens its route only when the guard lets it; otherwise redirects where the guard says. Until the partner arrives,
 * a route whose rules read it opens (hidden: the frame draws its skeleton, app-layout.tsx) only when the partner this
 * browser last showed would pass, so that its first data is asked for beside the start data; the guard decides again
 * on the partner the server sends, and redirects then.
 */
export function Guarded({ meta }: { meta: RouteMeta }) {
  const t = useT(commonMessages);
  const session = useSession();
  const needsPartner = meta.access === 'protected' && session.isLoggedIn && session.verified && readsPartner(meta);
  const profile = useProfile();
  const frame = useFramePartner();
  // a new tab signing itself in with the browser's session: neither the sign-in page nor the screen yet
  if (session.restoring) return <LoadingBlock label={t('signingIn')} minHeight={320} />;
  if (needsPartner && profile.isPending) {
    const wouldPass =
      frame.data &&
      guard(meta, { isLoggedIn: true, verified: true, role: session.user?.role, partner: frame.data.partner, featureFlags: frame.data.featureFlags }) === null;
    return wouldPass ? <Outlet /> : null;
  }
  const refusal = guardRefusal(meta, {
    isLoggedIn: session.isLoggedIn,
    verified: session.verified && session.user !== undefined,
    role: session.user?.role,
    partner: profile.data?.partner,
    featureFlags: profile.data?.featureFlags,
  });
  if (!refusal) return <Outlet />;
  // a signed-in user sent away from a page they may not open is told why (signing in is its own page)
  if (refusal.rule === 'authentication') return <Navigate to={refusal.redirect} replace />;
  return <RefusedRedirect to={refusal.redirect} rule={refusal.rule} />;
}

/** Says, in a toast, why the page did not open, and goes where the guard sends the user. */
function RefusedRedirect({ to, rule }: { to: string; rule: Exclude<GuardRule, 'authentication'> }) {
  const t = useT(commonMessages);
  const message = t(`refused.${rule}`);
  useEffect(() => toast.info(message), [message]);
  return <Navigate to={to} replace />;
}

/**
 * Home, where a sign-in lands: B2B partners to the first screen the user chose (/transactions unless it is the
 * Overview), others to /trades. The partner this browser last showed may decide it before the server's arrives (the
 * screen's own guard decides on the server's); a B2B partner's user waits for their preferences as the server has
 * them (they come with the start data, as the partner does), not this tab's copy of another moment: preferences that
 * cannot be read send to the transactions.
 */
export function HomeRedirect() {
  const frame = useFramePartner();
  const { query: preferences } = usePreferences();
  if (!frame.data) return null;
  const partner = frame.data.partner;
  if (partner.isB2B && !preferences.isError && (preferences.isPending || preferences.isPlaceholderData)) return null;
  return <Navigate to={homePath(partner, preferences.isError ? undefined : preferences.data?.startScreen)} replace />;
}
