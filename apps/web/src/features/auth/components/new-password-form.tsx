import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { SetPasswordRequest } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import { ROLE_LABELS } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { newPasswordProblem } from '../common-passwords.ts';
import { AuthCard, StepIndicator } from './auth-card.tsx';
import { NewPasswordField } from './new-password-field.tsx';
import { continueSignIn } from '../sign-in.ts';

export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** A new password and its confirmation, checked with the contract's rules and the common-password list. */
const newPasswordForm = (email: string) =>
  z.object({ password: SetPasswordRequest.shape.password, confirm: z.string() }).superRefine(async ({ password, confirm }, ctx) => {
    const problem = await newPasswordProblem(password, email);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    else if (password !== confirm) ctx.addIssue({ code: 'custom', path: ['confirm'], message: PASSWORDS_DIFFER });
  });

export type Invitation = { partnerName: string; role: Role } | undefined;

/** "Join Acme Remit": who invites, as what, and the address the password is for. */
const welcome = (email: string, invitation: Invitation) =>
  invitation ? (
    <>
      You are invited to the {invitation.partnerName} Partner Dashboard as {ROLE_LABELS[invitation.role]}. Choose the password for{' '}
      <strong className="font-medium text-ink">{email}</strong>; then you set up an authenticator app.
    </>
  ) : (
    <>
      Welcome! Choose the password for <strong className="font-medium text-ink">{email}</strong>.
    </>
  );

export function NewPasswordForm({ email, tempPassword, invitation }: { email: string; tempPassword: string; invitation: Invitation }) {
  const navigate = useNavigate();
  const { currentStep, totalSteps } = useSession();
  const [error, setError] = useState<string>();
  const schema = useMemo(() => newPasswordForm(email), [email]);
  const form = useForm<z.input<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { password: '', confirm: '' } });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });

  const submit = form.handleSubmit(async ({ password }) => {
    setError(undefined);
    try {
      await authApi.setPassword({ password, email, tempPassword });
      const res = await authApi.login({ email, password });
      void navigate(continueSignIn(res, { email, password }), { replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'something went wrong');
    }
  });

  return (
    <AuthCard title={invitation ? `Join ${invitation.partnerName}` : 'Choose your password'} subtitle={welcome(email, invitation)}>
      <StepIndicator current={currentStep} total={totalSteps} />
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <NewPasswordField value={password} email={email} error={errors.password?.message} registration={form.register('password')} autoFocus />
        {/* the address, for the browser's password manager to file the new password under */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register('confirm')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Set password
        </Button>
      </form>
    </AuthCard>
  );
}
