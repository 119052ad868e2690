import { can } from '@portal/contract/permissions';
import { useState } from 'react';
import { roleLabel } from '../../../lib/labels.ts';
import type { Role } from '@portal/contract/domain';
import type { TeamMember } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useUpdateRole } from '../api/update-role.ts';
import { teamMessages } from '../messages.ts';
import { RolePicker } from './role-picker.tsx';

/** Change a member's role. Changing one's own role applies to this session at once (menus, guarded screens). */
export function RoleDialog({ member, onClose }: { member: TeamMember; onClose: () => void }) {
  const t = useT(teamMessages);
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
          // the contract's sentence names the role in English: the role's name is the screen's to translate
          const said = translator(teamMessages);
          toast.show(said('roleDialog.changed', { email: user.email, role: roleLabel(user.role) }));
          if (self) useSession.setState((s) => (s.user ? { user: { ...s.user, role: user.role } } : {}));
          onClose();
        },
        onError: (err) => setError(localizeMessage(err.message)),
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('roleDialog.title', { name: member.name })}
      description={member.email}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={save} loading={update.isPending} disabled={role === member.role}>
            {t('roleDialog.save')}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {error && <Alert tone="danger">{error}</Alert>}
        <RolePicker name="member-role" value={role} onChange={setRole} />
        {self && can(member.role, 'manageTeam') && !can(role, 'manageTeam') && (
          <Alert tone="warning">{t('roleDialog.selfWarning', { role: roleLabel(member.role) })}</Alert>
        )}
      </div>
    </Dialog>
  );
}
