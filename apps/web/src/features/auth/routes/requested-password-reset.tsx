import { ConfirmPasswordResetRequest, Email, passwordProblem } from '@portal/contract/auth';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { PasswordRules } from '../components/password-rules.tsx';

const ADMIN_RESET_SENT = (email: string) => `Your administrator reset your password. Enter the six-digit code we e-mailed to ${email} and choose a new password.`;
const HAVE_CODE = 'Enter the six-digit code from your e-mail and choose a new password.';

/** Forgotten password (or one an admin reset): a six-digit code by e-mail, then a new password. */
export function RequestedPasswordResetScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const byAdmin = params.get('reason') === 'admin';
  const knownEmail = useSession((s) => s.temporaryLogin?.email);
  const [email, setEmail] = useState(knownEmail ?? '');
  // an admin's reset e-mails the code already: the screen starts at the code
  const [sent, setSent] = useState<string | undefined>(byAdmin && knownEmail ? ADMIN_RESET_SENT(knownEmail) : undefined);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function requestCode(e?: FormEvent) {
    e?.preventDefault();
    setError(undefined);
    const valid = Email.safeParse(email);
    if (!valid.success) return setError(valid.error.issues[0]!.message);
    setBusy(true);
    try {
      setSent((await authApi.forgotPassword({ email: email.trim() })).message);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'something went wrong');
    } finally {
      setBusy(false);
    }
  }

  async function confirmReset(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const codeCheck = ConfirmPasswordResetRequest.shape.confirmationCode.safeParse(code);
    if (!codeCheck.success) return setError(codeCheck.error.issues[0]!.message);
    const problem = passwordProblem(password, email);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await authApi.confirmPasswordReset({ email: email.trim(), password, confirmationCode: code.trim() });
      useSession.getState().reset();
      void navigate('/password-changed', { replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'something went wrong');
    } finally {
      setBusy(false);
    }
  }

  const back = (
    <Link to="/login" className="font-medium text-brand-700 hover:underline">
      Back to sign in
    </Link>
  );

  if (!sent) {
    return (
      <AuthCard
        title="Reset your password"
        subtitle={byAdmin ? 'Your administrator has reset your password. Choose a new one to sign in again.' : 'Enter your e-mail address and we will send you a six-digit code.'}
        footer={back}
      >
        <form onSubmit={(e) => void requestCode(e)} className="space-y-4" noValidate>
          {error && <Alert tone="danger">{error}</Alert>}
          <TextField label="E-mail" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
          <Button type="submit" block size="lg" loading={busy}>
            Send code
          </Button>
          <button type="button" className="block w-full text-center text-sm font-medium text-brand-700 hover:underline" onClick={() => setSent(HAVE_CODE)}>
            I already have a code
          </button>
        </form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Enter the code" subtitle={sent} footer={back}>
      <form onSubmit={(e) => void confirmReset(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        {!knownEmail && <TextField label="E-mail" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />}
        <TextField label="Six-digit code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} autoFocus />
        <TextField label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint={<PasswordRules />} />
        <Button type="submit" block size="lg" loading={busy}>
          Change password
        </Button>
        <button type="button" className="block w-full text-center text-sm font-medium text-brand-700 hover:underline disabled:text-muted" disabled={busy} onClick={() => void requestCode()}>
          Send a new code
        </button>
      </form>
    </AuthCard>
  );
}
