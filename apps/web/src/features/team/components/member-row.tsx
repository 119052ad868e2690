import type { TeamMember } from '@portal/contract/team';
import { roleLabel } from '../../../lib/labels.ts';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Menu, type MenuItem } from '../../../components/ui/menu.tsx';
import { formatDate, formatDay } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { teamMessages, type TeamKey, type TeamT } from '../messages.ts';

export type MemberAction = 'role' | 'resendInvite' | 'resendCode' | 'reset' | 'remove';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/** An invitation, not yet a member: it has a link that expires, and no sign-in. */
export const isInvitation = (member: TeamMember) => member.status === 'invited' || member.status === 'expired';

/** A member's status: its badge's tone and words. */
function statusOf(member: TeamMember): [BadgeTone, TeamKey] {
  if (member.status === 'invited') return ['warning', 'statuses.invited'];
  if (member.status === 'expired') return ['danger', 'statuses.expired'];
  if (member.status === 'inactive') return ['neutral', 'statuses.inactive'];
  if (member.passwordResetRequested) return ['warning', 'statuses.passwordReset'];
  return ['success', 'statuses.active'];
}

function StatusBadge({ member }: { member: TeamMember }) {
  const t = useT(teamMessages);
  const [tone, key] = statusOf(member);
  // a longer status (French) wraps in its column rather than running into the next
  return (
    <Badge tone={tone} className="max-w-full whitespace-normal!">
      {t(key)}
    </Badge>
  );
}

/** The actions an admin has for a member, in the order of the menu. */
export function actionsFor(member: TeamMember): MemberAction[] {
  return [
    'role',
    ...(isInvitation(member) ? (['resendInvite'] as const) : []),
    ...(member.status === 'active' ? (['reset'] as const) : []),
    ...(member.status === 'active' && member.passwordResetRequested ? (['resendCode'] as const) : []),
    'remove',
  ];
}

type Props = { member: TeamMember; self: boolean; canManage: boolean; onAction: (action: MemberAction) => void };

/** One member: name and e-mail, role, status, last sign-in, and the admin's actions. */
/** What the last column says: the last sign-in of a member, the link's end of an invitation. */
function lastSeen(t: TeamT, member: TeamMember): { label: string; text: string; title?: string } {
  const ends = member.invitationExpiresAt;
  // the day in the column, the minute on hover
  if (ends && isInvitation(member))
    return { label: t('invitationLink'), text: t(member.status === 'expired' ? 'expired' : 'expires', { day: formatDay(ends) }), title: formatDate(ends) };
  return { label: t('lastSignIn'), text: member.lastSignInAt ? formatDate(member.lastSignInAt) : t('never') };
}

export function MemberRow({ member, self, canManage, onAction }: Props) {
  const t = useT(teamMessages);
  const items: MenuItem[] = actionsFor(member).map((a) => ({
    label: t(a === 'remove' && isInvitation(member) ? 'actions.withdraw' : `actions.${a}`),
    danger: a === 'remove',
    onSelect: () => onAction(a),
  }));
  const seen = lastSeen(t, member);
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
          {self && <Badge tone="brand">{t('you')}</Badge>}
        </p>
        <p className="truncate text-xs text-muted">{member.email}</p>
      </div>
      {/* top right on a phone, the last column on a wide screen (explicit placement; the rest flows around it) */}
      <div className="col-start-3 row-start-1 justify-self-end md:col-start-6">
        {canManage && <Menu label={t('actionsFor', { email: member.email })} items={items} />}
      </div>
      <dl className="col-span-2 col-start-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm md:contents">
        <div className="md:block">
          <dt className="sr-only">{t('role')}</dt>
          <dd className="text-ink">{roleLabel(member.role)}</dd>
        </div>
        <div>
          <dt className="sr-only">{t('status')}</dt>
          <dd>
            <StatusBadge member={member} />
          </dd>
        </div>
        <div className="basis-full text-xs text-muted md:basis-auto md:text-sm">
          <dt className="inline md:sr-only">{t('labelled', { label: seen.label })} </dt>
          <dd className="inline whitespace-nowrap" title={seen.title}>
            {seen.text}
          </dd>
        </div>
      </dl>
    </li>
  );
}
