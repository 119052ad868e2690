import { useState } from 'react';
import type { Role } from '@portal/contract/domain';
import { ROLE_LABELS, TEAM_MESSAGES, type TeamMember } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useUpdateRole } from '../api/update-role.ts';
import { RolePicker } from './role-picker.tsx';

/** Change a member's role. Changing one's own role applies to this session at once (menus, guarded screens). */
export function RoleDialog({ member, onClose }: { member: TeamMember; onClose: () => void }) {
  const update = useUpdateRole();
  const me = useSession((s) => s.user?.id);
  const [role, setRole] = useState<Role>(member.role);
  const [error, setError] = useState<string>();
  const self = member.id === me;

  const save = () => {
    setError(undefined);
    update.mutate(
      { userId: member.id, role },
      {
        onSuccess: (user) => {
          toast.show(TEAM_MESSAGES.roleChanged(user.email, user.role));
          if (self) useSession.setState((s) => (s.user ? { user: { ...s.user, role: user.role } } : {}));
          onClose();
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Change the role of ${member.name}`}
      description={member.email}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={update.isPending} disabled={role === member.role}>
            Save role
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {error && <Alert tone="danger">{error}</Alert>}
        <RolePicker name="member-role" value={role} onChange={setRole} />
        {self && member.role === 'admin' && role !== 'admin' && (
          <Alert tone="warning">
            You are changing your own role: you will no longer be able to manage the team. Your current role is {ROLE_LABELS[member.role]}.
          </Alert>
        )}
      </div>
    </Dialog>
  );
}
