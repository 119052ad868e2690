import { ChevronRight, Users } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';

/** Settings' way to the team screen (/settings/team). */
export function TeamLink({ canEdit }: { canEdit: boolean }) {
  return (
    <Card className="p-0">
      <Link to="/settings/team" className="flex items-center gap-4 rounded-xl p-6 hover:bg-canvas/60">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-600/20">
          <Users className="size-5" aria-hidden="true" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-base font-semibold text-ink">Team</span>
          <span className="block text-sm text-muted">
            {canEdit ? 'Invite people, change their roles, reset passwords and remove access.' : 'See who can sign in to this dashboard and their roles.'}
          </span>
        </span>
        <span className="hidden text-sm font-medium text-brand-700 sm:inline">{canEdit ? 'Manage team' : 'View team'}</span>
        <ChevronRight className="size-5 text-muted" aria-hidden="true" />
      </Link>
    </Card>
  );
}
