import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { INVITATION_DAYS, InviteUserRequest, TEAM_MESSAGES } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useInviteUser } from '../api/invite-user.ts';
import { teamMessages } from '../messages.ts';
import { RolePicker } from './role-picker.tsx';

/** Invite a member: name, e-mail and role, checked with the contract's schema; they get a one-time link by e-mail. */
export function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(teamMessages);
  const invite = useInviteUser();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof InviteUserRequest>, unknown, z.output<typeof InviteUserRequest>>({
    resolver: zodResolver(InviteUserRequest),
    defaultValues: { name: '', email: '', role: 'view' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    setFormError(undefined);
    invite.mutate(values, {
      onSuccess: ({ user, mailSent }) => {
        // saved either way; when the mail did not leave, the admin is told to resend it
        toast.show(localizeMessage(mailSent ? TEAM_MESSAGES.invited(user.email) : TEAM_MESSAGES.invitedMailFailed(user.email)));
        onOpenChange(false);
      },
      onError: (err) => {
        // an address on the team already (a member or an invitation) is about the E-mail field: said under it
        if (err instanceof ApiError && (err.code === 'EmailInUse' || err.code === 'AlreadyInvited'))
          form.setError('email', { message: err.message }, { shouldFocus: true });
        else setFormError(localizeMessage(err.message));
      },
    });
  });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('inviteDialog.title')}
      description={t('inviteDialog.description', { days: INVITATION_DAYS })}
      width={520}
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {formError && <Alert tone="danger">{formError}</Alert>}
        <TextField
          label={t('inviteDialog.name')}
          autoComplete="off"
          error={errors.name?.message && localizeMessage(errors.name.message)}
          autoFocus
          {...form.register('name')}
        />
        <TextField
          label={t('inviteDialog.email')}
          type="email"
          autoComplete="off"
          error={errors.email?.message && localizeMessage(errors.email.message)}
          {...form.register('email')}
        />
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => <RolePicker name="invite-role" value={field.value} onChange={field.onChange} />}
        />
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={invite.isPending}>
            {t('inviteDialog.send')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
