import { can } from '@portal/contract/permissions';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { HistoryCard } from '../components/history-card.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { securityMessages } from '../messages.ts';

/** /settings/security: the caller's own sessions, and the security history (the team's for admins, else their own). */
export function SecurityScreen() {
  const t = useT(securityMessages);
  const me = useSession((s) => s.user);
  return (
    <div>
      <BackLink to="/settings">{t('back')}</BackLink>
      <PageHeader title={t('title')} description={t('description')} />
      <SessionsCard />
      <PasskeysCard />
      <HistoryCard admin={can(me?.role, 'readTeamSecurity')} />
    </div>
  );
}
