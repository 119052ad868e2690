import { passwordProblem } from '@portal/contract/auth';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard, StepIndicator } from '../components/auth-card.tsx';
import { PasswordRules } from '../components/password-rules.tsx';
import { continueSignIn } from '../sign-in.ts';

/** The new-password step of an invited user (NEW_PASSWORD_REQUIRED); then it signs in again and meets MFA setup. */
export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const { temporaryLogin, tempPassword, currentStep, totalSteps } = useSession();
  const reset = useSession((s) => s.reset);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

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
  const email = temporaryLogin.email;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const problem = passwordProblem(password, email);
    if (problem) return setError(problem);
    if (password !== confirm) return setError('The passwords do not match.');
    setBusy(true);
    try {
      await authApi.setPassword({ password, email, tempPassword: tempPassword! });
      const res = await authApi.login({ email, password });
      void navigate(continueSignIn(res, { email, password }), { replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'something went wrong');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose your password" subtitle={`Welcome! Replace the temporary password of ${email} with your own.`}>
      <StepIndicator current={currentStep} total={totalSteps} />
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus hint={<PasswordRules />} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <Button type="submit" block size="lg" loading={busy}>
          Set password
        </Button>
      </form>
    </AuthCard>
  );
}
