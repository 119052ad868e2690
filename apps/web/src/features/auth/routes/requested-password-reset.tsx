import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ConfirmPasswordResetRequest, ForgotPasswordRequest } from '@portal/contract/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { newPasswordProblem } from '../common-passwords.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { NewPasswordField } from '../components/new-password-field.tsx';
import { commonMessages } from '../../../lib/common-messages.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/** The code step: the contract's request schema, and the password rules with the common-password list. */
const ConfirmResetForm = ConfirmPasswordResetRequest.superRefine(async ({ email, password }, ctx) => {
  const problem = await newPasswordProblem(password, email);
  if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
});

const message = (err: unknown) => (err instanceof Error ? err.message : translator(commonMessages)('somethingWrong'));

/** Forgotten password (or one an admin reset): a six-digit code by e-mail, then a new password. */
export function RequestedPasswordResetScreen() {
  const t = useT(authMessages);
  const [params] = useSearchParams();
  const byAdmin = params.get('reason') === 'admin';
  const knownEmail = useSession((s) => s.temporaryLogin?.email);
  // an admin's reset e-mails the code already: the screen starts at the code
  const [sent, setSent] = useState<{ note: string; email: string } | undefined>(
    byAdmin && knownEmail ? { note: t('reset.adminSent', { email: knownEmail }), email: knownEmail } : undefined,
  );
  if (!sent) return <RequestCode byAdmin={byAdmin} initialEmail={knownEmail ?? ''} onSent={setSent} />;
  return <ConfirmReset note={sent.note} initialEmail={sent.email} askEmail={!knownEmail} />;
}

function BackToSignIn() {
  const t = useT(authMessages);
  return (
    <Link to="/login" className="font-medium text-brand-700 hover:underline">
      {t('backToSignIn')}
    </Link>
  );
}

function RequestCode({ byAdmin, initialEmail, onSent }: { byAdmin: boolean; initialEmail: string; onSent: (sent: { note: string; email: string }) => void }) {
  const t = useT(authMessages);
  const [error, setError] = useState<string>();
  const form = useForm<z.input<typeof ForgotPasswordRequest>, unknown, z.output<typeof ForgotPasswordRequest>>({
    resolver: zodResolver(ForgotPasswordRequest),
    defaultValues: { email: initialEmail },
  });
  const submit = form.handleSubmit(async ({ email }) => {
    setError(undefined);
    try {
      onSent({ note: (await authApi.forgotPassword({ email })).message, email });
    } catch (err) {
      setError(message(err));
    }
  });
  return (
    <AuthCard title={t('reset.title')} subtitle={byAdmin ? t('reset.byAdmin') : t('reset.intro')} footer={<BackToSignIn />}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label={t('email')} type="email" autoComplete="username" autoFocus error={form.formState.errors.email?.message} {...form.register('email')} />
        <Button type="submit" block size="lg" loading={form.formState.isSubmitting}>
          {t('reset.send')}
        </Button>
        <button
          type="button"
          className="block w-full text-center text-sm font-medium text-brand-700 hover:underline"
          onClick={() => onSent({ note: t('reset.haveCode'), email: form.getValues('email') })}
        >
          {t('reset.haveCodeLink')}
        </button>
      </form>
    </AuthCard>
  );
}

function ConfirmReset({ note: firstNote, initialEmail, askEmail }: { note: string; initialEmail: string; askEmail: boolean }) {
  const t = useT(authMessages);
  const navigate = useNavigate();
  const [note, setNote] = useState(firstNote);
  const [error, setError] = useState<string>();
  const [resending, setResending] = useState(false);
  const form = useForm<z.input<typeof ConfirmResetForm>, unknown, z.output<typeof ConfirmResetForm>>({
    resolver: zodResolver(ConfirmResetForm),
    defaultValues: { email: initialEmail, confirmationCode: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const [email, password] = useWatch({ control: form.control, name: ['email', 'password'] });

  const submit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      await authApi.confirmPasswordReset(values);
      useSession.getState().reset();
      void navigate('/password-changed', { replace: true });
    } catch (err) {
      setError(message(err));
    }
  });

  async function resend() {
    setError(undefined);
    const valid = ForgotPasswordRequest.safeParse({ email });
    if (!valid.success) return form.setError('email', { message: valid.error.issues[0]!.message });
    setResending(true);
    try {
      setNote((await authApi.forgotPassword(valid.data)).message);
    } catch (err) {
      setError(message(err));
    } finally {
      setResending(false);
    }
  }

  const code = form.register('confirmationCode');
  return (
    <AuthCard title={t('reset.enterCode')} subtitle={note} footer={<BackToSignIn />}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        {askEmail && <TextField label={t('email')} type="email" autoComplete="username" error={errors.email?.message} {...form.register('email')} />}
        <TextField
          label={t('reset.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          error={errors.confirmationCode?.message}
          {...code}
          onChange={(e) => {
            e.target.value = e.target.value.replace(/\D/g, '');
            void code.onChange(e);
          }}
        />
        <NewPasswordField value={password} email={email} error={errors.password?.message} registration={form.register('password')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          {t('reset.submit')}
        </Button>
        <button
          type="button"
          className="block w-full text-center text-sm font-medium text-brand-700 hover:underline disabled:text-muted"
          disabled={resending || isSubmitting}
          onClick={() => void resend()}
        >
          {t('reset.resend')}
        </button>
      </form>
    </AuthCard>
  );
}
