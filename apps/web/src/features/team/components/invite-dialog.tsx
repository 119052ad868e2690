import { useState, type FormEvent } from 'react';
import type { Role } from '@portal/contract/domain';
import { InviteUserRequest, TEAM_MESSAGES } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useInviteUser } from '../api/invite-user.ts';
import { RolePicker } from './role-picker.tsx';

type Errors = Partial<Record<'name' | 'email' | 'form', string>>;

/** Invite a member: name, e-mail and role; they get a temporary password by e-mail. */
export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const invite = useInviteUser();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('view');
  const [errors, setErrors] = useState<Errors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = InviteUserRequest.safeParse({ name, email, role });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'email') && !found[field]) found[field] = issue.message;
      }
      return setErrors(found);
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: (user) => {
        toast.show(TEAM_MESSAGES.invited(user.email));
        onOpenChange(false);
      },
      onError: (err) => setErrors({ form: err.message }),
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite a team member"
      description="They get an e-mail with a temporary password, then choose their own password and set up an authenticator app."
      width={520}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {errors.form && <Alert tone="danger">{errors.form}</Alert>}
        <TextField
          label="Full name"
          autoComplete="off"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }}
          error={errors.name}
          autoFocus
        />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErrors((x) => ({ ...x, email: undefined }));
          }}
          error={errors.email}
        />
        <RolePicker name="invite-role" value={role} onChange={setRole} />
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
