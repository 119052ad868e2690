import { passwordProblem } from '@portal/contract/auth';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { PasswordRules } from '../components/password-rules.tsx';

/** Forgotten password (or one an admin reset): a six-digit code by e-mail, then a new password. */
export function RequestedPasswordResetScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const byAdmin = params.get('reason') === 'admin';
  const knownEmail = useSession((s) => s.temporaryLogin?.email);
  const [email, setEmail] = useState(knownEmail ?? '');
  const [sent, setSent] = useState<string>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function requestCode(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) return setError('Enter a valid e-mail address');
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
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the six-digit code from the e-mail');
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
        </form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Enter the code" subtitle={sent} footer={back}>
      <form onSubmit={(e) => void confirmReset(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label="Six-digit code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} autoFocus />
        <TextField label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint={<PasswordRules />} />
        <Button type="submit" block size="lg" loading={busy}>
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
