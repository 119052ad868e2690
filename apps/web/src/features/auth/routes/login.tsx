import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { continueSignIn } from '../sign-in.ts';
import { takeFlash } from '../../../lib/session/session.ts';

export function LoginScreen() {
  const navigate = useNavigate();
  const [flash] = useState(takeFlash);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!email.trim() || !password) {
      setError('Enter your e-mail address and password.');
      return;
    }
    setBusy(true);
    try {
      const res = await authApi.login({ email: email.trim(), password });
      void navigate(continueSignIn(res, { email: email.trim().toLowerCase(), password }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AccountInactive') {
        void navigate('/account-inactive');
        return;
      }
      setError(err instanceof Error ? err.message : 'something went wrong');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in" subtitle="Sign in to your partner dashboard.">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {flash && !error && <Alert tone="danger">{flash}</Alert>}
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label="E-mail" type="email" name="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus required />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          trailing={
            <Link to="/requested-password-reset" className="text-xs font-medium text-brand-700 hover:underline">
              Forgot password?
            </Link>
          }
        />
        <Button type="submit" block size="lg" loading={busy}>
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
