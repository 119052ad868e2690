import { ChevronRight, ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { useT } from '../../../lib/i18n.ts';
import { settingsMessages } from '../messages.ts';

/** A way from Settings to a screen under it: its icon, its name, what it holds, and the action it offers. */
function SettingsLink({ to, icon: Icon, title, description, action }: { to: string; icon: LucideIcon; title: string; description: string; action: string }) {
  return (
    <Card className="p-0">
      <Link to={to} className="flex items-center gap-4 rounded-xl p-6 hover:bg-canvas/60">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-600/20">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-base font-semibold text-ink">{title}</span>
          <span className="block text-sm text-muted">{description}</span>
        </span>
        <span className="hidden text-sm font-medium text-brand-700 sm:inline">{action}</span>
        <ChevronRight className="size-5 text-muted" aria-hidden="true" />
      </Link>
    </Card>
  );
}

/** Settings' way to the team screen (/settings/team). */
export function TeamLink({ canEdit }: { canEdit: boolean }) {
  const t = useT(settingsMessages);
  return (
    <SettingsLink
      to="/settings/team"
      icon={Users}
      title={t('links.team.title')}
      description={t(canEdit ? 'links.team.manageDescription' : 'links.team.viewDescription')}
      action={t(canEdit ? 'links.team.manage' : 'links.team.view')}
    />
  );
}

/** Settings' way to the security screen (/settings/security): one's sessions and the security history. */
export function SecurityLink({ admin }: { admin: boolean }) {
  const t = useT(settingsMessages);
  return (
    <SettingsLink
      to="/settings/security"
      icon={ShieldCheck}
      title={t('links.security.title')}
      description={t(admin ? 'links.security.adminDescription' : 'links.security.description')}
      action={t('links.security.view')}
    />
  );
}
