import { ChevronRight, ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';

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
  return (
    <SettingsLink
      to="/settings/team"
      icon={Users}
      title="Team"
      description={canEdit ? 'Invite people, change their roles, reset passwords and remove access.' : 'See who can sign in to this dashboard and their roles.'}
      action={canEdit ? 'Manage team' : 'View team'}
    />
  );
}

/** Settings' way to the security screen (/settings/security): one's sessions and the security history. */
export function SecurityLink({ admin }: { admin: boolean }) {
  return (
    <SettingsLink
      to="/settings/security"
      icon={ShieldCheck}
      title="Security"
      description={
        admin
          ? 'Where you are signed in, and the history of sign-ins and changes across your team.'
          : 'Where you are signed in, and the history of your sign-ins and changes.'
      }
      action="View security"
    />
  );
}
