import { can } from '@portal/contract/permissions';
import { UserPlus, Users } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { INVITATION_DAYS, type TeamMember } from '@portal/contract/team';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { translator, useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useResendCode } from '../api/resend-code.ts';
import { useResendInvite } from '../api/resend-invite.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useTeam } from '../../../lib/partner/team.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { InviteDialog } from '../components/invite-dialog.tsx';
import { isInvitation, MemberRow, type MemberAction } from '../components/member-row.tsx';
import { RoleDialog } from '../components/role-dialog.tsx';
import { teamMessages, type TeamT } from '../messages.ts';

function Skeleton() {
  return <RowSkeletons rows={4} mark="size-9" name="w-56" end="w-24" />;
}

/** "4 members, 1 invitation": the list's count, members and invitations apart. */
export function teamCount(list: TeamMember[], t: TeamT = translator(teamMessages)): string {
  const invitations = list.filter(isInvitation).length;
  const members = t('count.members', { count: list.length - invitations });
  return invitations === 0 ? members : t('count.both', { members, invitations: t('count.invitations', { count: invitations }) });
}

/** What a confirmation asks: its title and button, whether the action is dangerous, the call it makes and its text. */
type Confirmation = {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  mutation: { isPending: boolean; mutateAsync(id: string): Promise<string> };
  body: ReactNode;
};

/** The dialog of the action chosen for a member. */
function ActionDialog({ member, action, self, onClose }: { member: TeamMember; action: MemberAction; self: boolean; onClose: () => void }) {
  const t = useT(teamMessages);
  const email = { b: (text: string) => <strong>{text}</strong>, email: member.email };
  const remove = useDeleteUser();
  const reset = useResetPassword();
  const resendInvite = useResendInvite();
  const resendCode = useResendCode();
  if (action === 'role') return <RoleDialog member={member} onClose={onClose} />;
  const { mutation, body, ...dialog } = ((): Confirmation => {
    switch (action) {
      case 'remove':
        if (isInvitation(member))
          return {
            title: t('withdraw.title'),
            confirmLabel: t('withdraw.confirm'),
            danger: true,
            mutation: remove,
            body: <p>{t.rich('withdraw.body', email)}</p>,
          };
        return {
          title: self ? t('leave.title') : t('remove.title', { name: member.name }),
          confirmLabel: t(self ? 'leave.confirm' : 'remove.confirm'),
          danger: true,
          mutation: remove,
          body: (
            <>
              <p>{self ? t('leave.body') : t.rich('remove.body', email)}</p>
              <p className="text-muted">{t('remove.history')}</p>
            </>
          ),
        };
      case 'reset':
        return {
          title: t('reset.title', { name: member.name }),
          confirmLabel: t('reset.confirm'),
          danger: true,
          mutation: reset,
          body: <p>{t.rich('reset.body', email)}</p>,
        };
      case 'resendInvite':
        return {
          title: t('resendInvite.title'),
          confirmLabel: t('resendInvite.confirm'),
          mutation: resendInvite,
          body: <p>{t.rich('resendInvite.body', { ...email, days: INVITATION_DAYS })}</p>,
        };
      case 'resendCode':
        return { title: t('resendCode.title'), confirmLabel: t('resendCode.confirm'), mutation: resendCode, body: <p>{t.rich('resendCode.body', email)}</p> };
    }
  })();
  return (
    <ConfirmDialog {...dialog} busy={mutation.isPending} onConfirm={async () => toast.show(await mutation.mutateAsync(member.id))} onClose={onClose}>
      {body}
    </ConfirmDialog>
  );
}

/** /settings/team: who can sign in for the partner; admins invite, change roles, reset passwords and remove. */
export function TeamScreen() {
  const t = useT(teamMessages);
  const team = useTeam();
  const me = useSession((s) => s.user);
  const canManage = can(me?.role, 'manageTeam');
  const [inviting, setInviting] = useState(false);
  const [chosen, setChosen] = useState<{ member: TeamMember; action: MemberAction }>();
  const members = team.data ?? [];

  return (
    <div>
      <BackLink to="/settings">{t('back')}</BackLink>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canManage && (
            <Button onClick={() => setInviting(true)}>
              <UserPlus className="size-4" aria-hidden="true" />
              {t('invite')}
            </Button>
          )
        }
      />
      {!canManage && (
        <Alert tone="info" className="mb-4">
          {t('readOnly')}
        </Alert>
      )}
      <ErrorAlert error={team.error} className="mb-4" />
      <Card>
        <div
          className="hidden grid-cols-[auto_minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.3fr)_2rem] gap-x-4 border-b border-line px-6 py-3 text-xs font-medium uppercase tracking-wide text-muted md:grid"
          aria-hidden="true"
        >
          <span className="w-9" />
          <span>{t('columns.member')}</span>
          <span>{t('columns.role')}</span>
          <span>{t('columns.status')}</span>
          <span>{t('columns.lastSignIn')}</span>
          <span />
        </div>
        {team.isPending ? (
          <Skeleton />
        ) : members.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <Users className="size-9 text-brand-600" aria-hidden="true" />
            <p className="text-sm text-muted">{t('empty')}</p>
          </div>
        ) : (
          <ul className="divide-y divide-line" aria-label={t('list')}>
            {members.map((m) => (
              <MemberRow key={m.id} member={m} self={m.id === me?.id} canManage={canManage} onAction={(action) => setChosen({ member: m, action })} />
            ))}
          </ul>
        )}
      </Card>
      {team.isSuccess && (
        <p className="mt-3 text-xs text-muted">
          {teamCount(members, t)} · {t('footnote')}
        </p>
      )}
      {inviting && <InviteDialog open={inviting} onOpenChange={setInviting} />}
      {chosen && <ActionDialog member={chosen.member} action={chosen.action} self={chosen.member.id === me?.id} onClose={() => setChosen(undefined)} />}
    </div>
  );
}
