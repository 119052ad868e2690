import { UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { INVITATION_DAYS, type TeamMember } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
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

export const READ_ONLY_TEAM = 'You can see your team. Only an admin can invite members or change them.';

function Skeleton() {
  return <RowSkeletons rows={4} mark="size-9" name="w-56" end="w-24" />;
}

/** "4 members, 1 invitation": the list's count, members and invitations apart. */
export function teamCount(list: TeamMember[]): string {
  const invitations = list.filter(isInvitation).length;
  const members = list.length - invitations;
  const part = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return invitations === 0 ? part(members, 'member', 'members') : `${part(members, 'member', 'members')}, ${part(invitations, 'invitation', 'invitations')}`;
}

/** The dialog of the action chosen for a member. */
function ActionDialog({ member, action, self, onClose }: { member: TeamMember; action: MemberAction; self: boolean; onClose: () => void }) {
  const remove = useDeleteUser();
  const reset = useResetPassword();
  const resendInvite = useResendInvite();
  const resendCode = useResendCode();
  const run = (mutation: { mutateAsync(id: string): Promise<string> }) => async () => toast.show(await mutation.mutateAsync(member.id));
  switch (action) {
    case 'role':
      return <RoleDialog member={member} onClose={onClose} />;
    case 'remove':
      if (isInvitation(member))
        return (
          <ConfirmDialog
            title="Withdraw the invitation?"
            confirmLabel="Withdraw invitation"
            danger
            busy={remove.isPending}
            onConfirm={run(remove)}
            onClose={onClose}
          >
            <p>
              The link we e-mailed to <strong>{member.email}</strong> stops working at once. You can invite the address again later.
            </p>
          </ConfirmDialog>
        );
      return (
        <ConfirmDialog
          title={self ? 'Leave the team?' : `Remove ${member.name}?`}
          confirmLabel={self ? 'Leave team' : 'Remove'}
          danger
          busy={remove.isPending}
          onConfirm={run(remove)}
          onClose={onClose}
        >
          <p>{self ? 'You' : <strong>{member.email}</strong>} will be signed out at once and can no longer sign in to this dashboard.</p>
          <p className="text-muted">Their history stays in your audit trail. You can invite the address again later.</p>
        </ConfirmDialog>
      );
    case 'reset':
      return (
        <ConfirmDialog
          title={`Reset the password of ${member.name}?`}
          confirmLabel="Reset password"
          danger
          busy={reset.isPending}
          onConfirm={run(reset)}
          onClose={onClose}
        >
          <p>
            <strong>{member.email}</strong> is signed out everywhere at once. We e-mail them a six-digit code: they choose a new password with it before they
            can sign in again.
          </p>
        </ConfirmDialog>
      );
    case 'resendInvite':
      return (
        <ConfirmDialog
          title="Resend the invitation?"
          confirmLabel="Resend invitation"
          busy={resendInvite.isPending}
          onConfirm={run(resendInvite)}
          onClose={onClose}
        >
          <p>
            We e-mail <strong>{member.email}</strong> a new one-time link to join, valid for {INVITATION_DAYS} days. The link sent before stops working.
          </p>
        </ConfirmDialog>
      );
    case 'resendCode':
      return (
        <ConfirmDialog title="Resend the reset code?" confirmLabel="Resend code" busy={resendCode.isPending} onConfirm={run(resendCode)} onClose={onClose}>
          <p>
            We e-mail <strong>{member.email}</strong> a new six-digit code to choose a password. Earlier codes stop working.
          </p>
        </ConfirmDialog>
      );
  }
}

/** /settings/team: who can sign in for the partner; admins invite, change roles, reset passwords and remove. */
export function TeamScreen() {
  const team = useTeam();
  const me = useSession((s) => s.user);
  const canManage = me?.role === 'admin';
  const [inviting, setInviting] = useState(false);
  const [chosen, setChosen] = useState<{ member: TeamMember; action: MemberAction }>();
  const members = team.data ?? [];

  return (
    <div>
      <BackLink to="/settings">Settings</BackLink>
      <PageHeader
        title="Team"
        description="Everyone who can sign in to your dashboard, and what each of them may do."
        actions={
          canManage && (
            <Button onClick={() => setInviting(true)}>
              <UserPlus className="size-4" aria-hidden="true" />
              Invite member
            </Button>
          )
        }
      />
      {!canManage && (
        <Alert tone="info" className="mb-4">
          {READ_ONLY_TEAM}
        </Alert>
      )}
      {team.isError && (
        <Alert tone="danger" className="mb-4">
          {team.error.message}
        </Alert>
      )}
      <Card>
        <div
          className="hidden grid-cols-[auto_minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.3fr)_2rem] gap-x-4 border-b border-line px-6 py-3 text-xs font-medium uppercase tracking-wide text-muted md:grid"
          aria-hidden="true"
        >
          <span className="w-9" />
          <span>Member</span>
          <span>Role</span>
          <span>Status</span>
          <span>Last sign-in</span>
          <span />
        </div>
        {team.isPending ? (
          <Skeleton />
        ) : members.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <Users className="size-9 text-brand-600" aria-hidden="true" />
            <p className="text-sm text-muted">Nobody is on your team yet.</p>
          </div>
        ) : (
          <ul className="divide-y divide-line" aria-label="Team members">
            {members.map((m) => (
              <MemberRow key={m.id} member={m} self={m.id === me?.id} canManage={canManage} onAction={(action) => setChosen({ member: m, action })} />
            ))}
          </ul>
        )}
      </Card>
      {team.isSuccess && (
        <p className="mt-3 text-xs text-muted">{teamCount(members)} · Removed members are not listed; their actions stay in the audit trail.</p>
      )}
      {inviting && <InviteDialog open={inviting} onOpenChange={setInviting} />}
      {chosen && <ActionDialog member={chosen.member} action={chosen.action} self={chosen.member.id === me?.id} onClose={() => setChosen(undefined)} />}
    </div>
  );
}
