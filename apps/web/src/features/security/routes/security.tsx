import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { HistoryCard } from '../components/history-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';

/** /settings/security: the caller's own sessions, and the security history (the team's for admins, else their own). */
export function SecurityScreen() {
  const me = useSession((s) => s.user);
  return (
    <div>
      <Link to="/settings" className="mb-3 inline-flex items-center gap-1.5 text-sm font-medium text-muted hover:text-ink">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Settings
      </Link>
      <PageHeader title="Security" description="Where you are signed in, and who did what in this dashboard." />
      <SessionsCard />
      <HistoryCard admin={me?.role === 'admin'} />
    </div>
  );
}
