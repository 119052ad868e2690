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

const ADMIN_RESET_SENT = (email: string) =>
  `Your administrator reset your password. Enter the six-digit code we e-mailed to ${email} and choose a new password.`;
const HAVE_CODE = 'Enter the six-digit code from your e-mail and choose a new password.';

/** The code step: the contract's request schema, and the password rules with the common-password list. */
const ConfirmResetForm = ConfirmPasswordResetRequest.superRefine(async ({ email, password }, ctx) => {
  const problem = await newPasswordProblem(password, email);
  if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
});

const message = (err: unknown) => (err instanceof Error ? err.message : 'something went wrong');

/** Forgotten password (or one an admin reset): a six-digit code by e-mail, then a new password. */
export function RequestedPasswordResetScreen() {
  const [params] = useSearchParams();
  const byAdmin = params.get('reason') === 'admin';
  const knownEmail = useSession((s) => s.temporaryLogin?.email);
  // an admin's reset e-mails the code already: the screen starts at the code
  const [sent, setSent] = useState<{ note: string; email: string } | undefined>(
    byAdmin && knownEmail ? { note: ADMIN_RESET_SENT(knownEmail), email: knownEmail } : undefined,
  );
  if (!sent) return <RequestCode byAdmin={byAdmin} initialEmail={knownEmail ?? ''} onSent={setSent} />;
  return <ConfirmReset note={sent.note} initialEmail={sent.email} askEmail={!knownEmail} />;
}

function BackToSignIn() {
  return (
    <Link to="/login" className="font-medium text-brand-700 hover:underline">
      Back to sign in
    </Link>
  );
}

function RequestCode({ byAdmin, initialEmail, onSent }: { byAdmin: boolean; initialEmail: string; onSent: (sent: { note: string; email: string }) => void }) {
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
    <AuthCard
      title="Reset your password"
      subtitle={
        byAdmin
          ? 'Your administrator has reset your password. Choose a new one to sign in again.'
          : 'Enter your e-mail address and we will send you a six-digit code.'
      }
      footer={<BackToSignIn />}
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label="E-mail" type="email" autoComplete="username" autoFocus error={form.formState.errors.email?.message} {...form.register('email')} />
        <Button type="submit" block size="lg" loading={form.formState.isSubmitting}>
          Send code
        </Button>
        <button
          type="button"
          className="block w-full text-center text-sm font-medium text-brand-700 hover:underline"
          onClick={() => onSent({ note: HAVE_CODE, email: form.getValues('email') })}
        >
          I already have a code
        </button>
      </form>
    </AuthCard>
  );
}

function ConfirmReset({ note: firstNote, initialEmail, askEmail }: { note: string; initialEmail: string; askEmail: boolean }) {
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
    <AuthCard title="Enter the code" subtitle={note} footer={<BackToSignIn />}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        {askEmail && <TextField label="E-mail" type="email" autoComplete="username" error={errors.email?.message} {...form.register('email')} />}
        <TextField
          label="Six-digit code"
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
          Change password
        </Button>
        <button
          type="button"
          className="block w-full text-center text-sm font-medium text-brand-700 hover:underline disabled:text-muted"
          disabled={resending || isSubmitting}
          onClick={() => void resend()}
        >
          Send a new code
        </button>
      </form>
    </AuthCard>
  );
}
