import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { SetPasswordRequest } from '@portal/contract/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { newPasswordProblem } from '../common-passwords.ts';
import { AuthCard, StepIndicator } from '../components/auth-card.tsx';
import { NewPasswordField } from '../components/new-password-field.tsx';
import { continueSignIn } from '../sign-in.ts';

export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** A new password and its confirmation, checked with the contract's rules and the common-password list. */
const newPasswordForm = (email: string) =>
  z.object({ password: SetPasswordRequest.shape.password, confirm: z.string() }).superRefine(async ({ password, confirm }, ctx) => {
    const problem = await newPasswordProblem(password, email);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    else if (password !== confirm) ctx.addIssue({ code: 'custom', path: ['confirm'], message: PASSWORDS_DIFFER });
  });

/** The new-password step of an invited user (NEW_PASSWORD_REQUIRED); then it signs in again and meets MFA setup. */
export function ResetPasswordScreen() {
  const { temporaryLogin, tempPassword } = useSession();
  const reset = useSession((s) => s.reset);
  if (!temporaryLogin || !tempPassword) {
    return (
      <AuthCard title="Choose your password">
        <Alert tone="danger">cannot set user password without a temporary user state</Alert>
        <Link to="/login" onClick={reset} className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </AuthCard>
    );
  }
  return <NewPasswordForm email={temporaryLogin.email} tempPassword={tempPassword} />;
}

function NewPasswordForm({ email, tempPassword }: { email: string; tempPassword: string }) {
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
    <AuthCard title="Choose your password" subtitle={`Welcome! Replace the temporary password of ${email} with your own.`}>
      <StepIndicator current={currentStep} total={totalSteps} />
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <NewPasswordField value={password} email={email} error={errors.password?.message} registration={form.register('password')} autoFocus />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register('confirm')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Set password
        </Button>
      </form>
    </AuthCard>
  );
}
