import { Navigate, Outlet } from 'react-router';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { LoadingBlock } from '../components/ui/spinner.tsx';
import { useProfile } from '../lib/partner/profile.ts';
import { useSession } from '../lib/session/session-store.ts';
import { guard, homePath } from './guard.ts';
import type { RouteMeta } from './routes.ts';

/** Opens its route only when the guard lets it; otherwise redirects where the guard says. */
export function Guarded({ meta }: { meta: RouteMeta }) {
  const session = useSession();
  const needsPartner = meta.access === 'protected' && session.isLoggedIn && session.verified;
  const profile = useProfile();
  // a new tab signing itself in with the browser's session: neither the sign-in page nor the screen yet
  if (session.restoring) return <LoadingBlock label="Signing you in..." minHeight={320} />;
  if (needsPartner && profile.isPending) return <LoadingBlock label="Loading..." minHeight={320} />;
  if (needsPartner && profile.isError) {
    return (
      <div className="mx-auto max-w-md p-8">
        <Alert tone="danger">could not retrieve partner: {profile.error.message}</Alert>
        <Button className="mt-4" variant="secondary" onClick={() => void profile.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const redirect = guard(meta, {
    isLoggedIn: session.isLoggedIn,
    verified: session.verified && session.user !== undefined,
    role: session.user?.role,
    partner: profile.data?.partner,
    featureFlags: profile.data?.featureFlags,
  });
  if (redirect) return <Navigate to={redirect} replace />;
  return <Outlet />;
}

/** Home: B2B partners to /transactions, others to /trades. */
export function HomeRedirect() {
  const profile = useProfile();
  if (!profile.data) return <LoadingBlock label="Loading..." minHeight={320} />;
  return <Navigate to={homePath(profile.data.partner)} replace />;
}
