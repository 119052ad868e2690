import { can } from '@portal/contract/permissions';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useBrowserTimeZone } from '../../../lib/browser-zone.ts';
import { useT } from '../../../lib/i18n.ts';
import { useShownOnce } from '../../../lib/shown-once.ts';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { LowBalanceForm } from '../components/low-balance-form.tsx';
import { PayoutForm } from '../components/payout-form.tsx';
import { SecurityLink, TeamLink } from '../components/settings-link.tsx';
import { TimeZoneSection } from '../components/time-zone-section.tsx';
import { LanguageSection } from '../components/language-section.tsx';
import { StartScreenSection } from '../components/start-screen-section.tsx';
import { NotificationSection } from '../components/notification-section.tsx';
import { SettingsSkeleton } from '../components/settings-skeleton.tsx';
import { usePayoutConfig } from '../api/settings.ts';
import { useNotificationPreferences } from '../api/notification-preferences.ts';
import { settingsMessages } from '../messages.ts';

export function SettingsScreen() {
  const t = useT(settingsMessages);
  const role = useSession((s) => s.user?.role);
  const canEdit = can(role, 'editSettings');
  // the first screen is a choice where there are two: a B2B partner's transactions or Overview
  const b2b = useProfile().data?.partner.isB2B ?? false;
  // the sections show together once the data they draw is in (or failed) and the browser's zone is known (a worker
  // looks it up meanwhile: the first lookup in a page is slow): none grows under the reader. Once shown they stay (a
  // section trying again after a failure shows that itself)
  const browserZone = useBrowserTimeZone();
  const shown = useShownOnce([usePayoutConfig(), useNotificationPreferences()].every((q) => !q.isPending) && browserZone !== undefined);
  if (!shown)
    return (
      <div aria-busy="true">
        <PageHeader {...PAGE_TEXTS.settings} />
        <SettingsSkeleton />
      </div>
    );
  return (
    <div>
      <PageHeader {...PAGE_TEXTS.settings} />
      {!canEdit && (
        <Alert tone="info" className="mb-6">
          {t('readOnly')}
        </Alert>
      )}
      <div className="space-y-6">
        <LowBalanceForm canEdit={canEdit} />
        <PayoutForm canEdit={canEdit} />
        <NotificationSection />
        <TimeZoneSection />
        <LanguageSection />
        {b2b && <StartScreenSection />}
        <TeamLink canEdit={canEdit} />
        <SecurityLink admin={canEdit} />
      </div>
    </div>
  );
}
