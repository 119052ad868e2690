import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { LoginRequest } from '@portal/contract/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { continueSignIn } from '../sign-in.ts';
import { takeFlash } from '../../../lib/session/session.ts';

/**
 * Sign-in: e-mail and password, checked with the contract's schema before they are sent. The Tab key goes e-mail,
 * password, Sign in, then "Forgot password?" (below the button, where the keyboard reaches it last).
 */
export function LoginScreen() {
  const navigate = useNavigate();
  const [flash] = useState(takeFlash);
  const [error, setError] = useState<string>();
  const form = useForm<z.input<typeof LoginRequest>, unknown, z.output<typeof LoginRequest>>({
    resolver: zodResolver(LoginRequest),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email, password }) => {
    setError(undefined);
    try {
      const res = await authApi.login({ email, password });
      void navigate(continueSignIn(res, { email, password }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AccountInactive') {
        void navigate('/account-inactive');
        return;
      }
      setError(err instanceof Error ? err.message : 'something went wrong');
    }
  });

  return (
    <AuthCard title="Sign in" subtitle="Sign in to your partner dashboard.">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {flash && !error && <Alert tone="danger">{flash}</Alert>}
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField label="E-mail" type="email" autoComplete="username" autoFocus required error={errors.email?.message} {...form.register('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" required error={errors.password?.message} {...form.register('password')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Sign in
        </Button>
        <p className="text-center text-sm">
          <Link to="/requested-password-reset" className="font-medium text-brand-700 hover:underline">
            Forgot password?
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
