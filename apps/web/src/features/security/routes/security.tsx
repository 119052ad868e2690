import { BackLink } from '../../../components/ui/back-link.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { HistoryCard } from '../components/history-card.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';

/** /settings/security: the caller's own sessions, and the security history (the team's for admins, else their own). */
export function SecurityScreen() {
  const me = useSession((s) => s.user);
  return (
    <div>
      <BackLink to="/settings">Settings</BackLink>
      <PageHeader title="Security" description="Where you are signed in, your passkeys, and who did what in this dashboard." />
      <SessionsCard />
      <PasskeysCard />
      <HistoryCard admin={me?.role === 'admin'} />
    </div>
  );
}
