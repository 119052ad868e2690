import { ROLE_LABELS, type TeamMember } from '@portal/contract/team';
import { Badge } from '../../../components/ui/badge.tsx';
import { Menu, type MenuItem } from '../../../components/ui/menu.tsx';
import { formatDate } from '../../../lib/format.ts';

export type MemberAction = 'role' | 'resendInvite' | 'resendCode' | 'reset' | 'remove';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

function StatusBadge({ member }: { member: TeamMember }) {
  if (member.status === 'invited') return <Badge tone="warning">Invited</Badge>;
  if (member.status === 'inactive') return <Badge>Inactive</Badge>;
  if (member.passwordResetRequested) return <Badge tone="warning">Password reset</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** The actions an admin has for a member, in the order of the menu. */
export function actionsFor(member: TeamMember): MemberAction[] {
  return [
    'role',
    ...(member.status === 'invited' ? (['resendInvite'] as const) : []),
    ...(member.status === 'active' ? (['reset'] as const) : []),
    ...(member.status === 'active' && member.passwordResetRequested ? (['resendCode'] as const) : []),
    'remove',
  ];
}

const LABELS: Record<MemberAction, string> = {
  role: 'Change role',
  resendInvite: 'Resend invitation',
  resendCode: 'Resend reset code',
  reset: 'Reset password',
  remove: 'Remove from team',
};

type Props = { member: TeamMember; self: boolean; canManage: boolean; onAction: (action: MemberAction) => void };

/** One member: name and e-mail, role, status, last sign-in, and the admin's actions. */
export function MemberRow({ member, self, canManage, onAction }: Props) {
  const items: MenuItem[] = actionsFor(member).map((a) => ({ label: LABELS[a], danger: a === 'remove', onSelect: () => onAction(a) }));
  return (
    <li
      className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-2 px-4 py-4 sm:px-6 md:grid-cols-[auto_minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.3fr)_2rem] md:items-center md:gap-x-4"
      data-testid="team-member"
    >
      <span
        className="flex size-9 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800 ring-1 ring-brand-600/20"
        aria-hidden="true"
      >
        {initials(member.name) || '?'}
      </span>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-ink">
          <span className="truncate">{member.name}</span>
          {self && <Badge tone="brand">You</Badge>}
        </p>
        <p className="truncate text-xs text-muted">{member.email}</p>
      </div>
      {/* top right on a phone, the last column on a wide screen (explicit placement; the rest flows around it) */}
      <div className="col-start-3 row-start-1 justify-self-end md:col-start-6">{canManage && <Menu label={`Actions for ${member.email}`} items={items} />}</div>
      <dl className="col-span-2 col-start-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm md:contents">
        <div className="md:block">
          <dt className="sr-only">Role</dt>
          <dd className="text-ink">{ROLE_LABELS[member.role]}</dd>
        </div>
        <div>
          <dt className="sr-only">Status</dt>
          <dd>
            <StatusBadge member={member} />
          </dd>
        </div>
        <div className="basis-full text-xs text-muted md:basis-auto md:text-sm">
          <dt className="inline md:sr-only">Last sign-in: </dt>
          <dd className="inline whitespace-nowrap">{member.lastSignInAt ? formatDate(member.lastSignInAt) : 'Never'}</dd>
        </div>
      </dl>
    </li>
  );
}
