import { zodResolver } from '@hookform/resolvers/zod';
import { roleLabel } from '../../../lib/labels.ts';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { SetPasswordRequest } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { newPasswordProblem } from '../common-passwords.ts';
import { AuthCard, StepIndicator } from './auth-card.tsx';
import { NewPasswordField } from './new-password-field.tsx';
import { continueSignIn } from '../sign-in.ts';
import { translator, useT, type Translate } from '../../../lib/i18n.ts';
import { commonMessages } from '../../../lib/common-messages.ts';
import { authMessages } from '../messages.ts';

/**
 * A new password and its confirmation, checked with the contract's rules and the common-password list (the
 * contract's messages are translated where the field shows them; the mismatch is this form's own words).
 */
const newPasswordForm = (email: string, passwordsDiffer: string) =>
  z.object({ password: SetPasswordRequest.shape.password, confirm: z.string() }).superRefine(async ({ password, confirm }, ctx) => {
    const problem = await newPasswordProblem(password, email);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    else if (password !== confirm) ctx.addIssue({ code: 'custom', path: ['confirm'], message: passwordsDiffer });
  });

export type Invitation = { partnerName: string; role: Role } | undefined;

/** "Join Acme Remit": who invites, as what, and the address the password is for. */
const welcome = (t: Translate<typeof authMessages.en>, email: string, invitation: Invitation) => {
  const b = (text: string) => <strong className="font-medium text-ink">{text}</strong>;
  return invitation
    ? t.rich('welcome.invited', { partner: invitation.partnerName, role: roleLabel(invitation.role), email, b })
    : t.rich('welcome.plain', { email, b });
};

export function NewPasswordForm({ email, tempPassword, invitation }: { email: string; tempPassword: string; invitation: Invitation }) {
  const t = useT(authMessages);
  const navigate = useNavigate();
  const { currentStep, totalSteps } = useSession();
  const [error, setError] = useState<string>();
  const schema = useMemo(() => newPasswordForm(email, t('passwordsDiffer')), [email, t]);
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
      setError(err instanceof Error ? err.message : translator(commonMessages)('somethingWrong'));
    }
  });

  return (
    <AuthCard title={invitation ? t('join', { partner: invitation.partnerName }) : t('choosePassword')} subtitle={welcome(t, email, invitation)}>
      <StepIndicator current={currentStep} total={totalSteps} />
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <NewPasswordField value={password} email={email} error={errors.password?.message} registration={form.register('password')} autoFocus />
        {/* the address, for the browser's password manager to file the new password under */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <TextField label={t('confirmPassword')} type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register('confirm')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          {t('setPassword')}
        </Button>
      </form>
    </AuthCard>
  );
}
