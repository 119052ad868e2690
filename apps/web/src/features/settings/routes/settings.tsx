import { Alert } from '../../../components/ui/alert.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { LowBalanceForm } from '../components/low-balance-form.tsx';
import { PayoutForm } from '../components/payout-form.tsx';
import { TeamLink } from '../components/team-link.tsx';
import { TimeZoneSection } from '../components/time-zone-section.tsx';
import { NotificationSection } from '../components/notification-section.tsx';

const READ_ONLY = 'You do not have edit access because you are not an admin';

export function SettingsScreen() {
  const role = useSession((s) => s.user?.role);
  const canEdit = role === 'admin';
  return (
    <div>
      <PageHeader {...PAGE_TEXTS.settings} />
      {!canEdit && (
        <Alert tone="info" className="mb-6">
          {READ_ONLY}
        </Alert>
      )}
      <div className="space-y-6">
        <LowBalanceForm canEdit={canEdit} />
        <PayoutForm canEdit={canEdit} />
        <NotificationSection />
        <TimeZoneSection />
        <TeamLink canEdit={canEdit} />
      </div>
    </div>
  );
}
