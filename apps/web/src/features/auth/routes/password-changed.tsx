import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';

export function PasswordChangedScreen() {
  return (
    <AuthCard title="Password changed">
      <div className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
        <p className="text-sm">Your password has been changed. Sign in with your new password.</p>
      </div>
      <Link
        to="/login"
        className="mt-6 inline-flex h-10 w-full items-center justify-center rounded-lg bg-brand-800 text-sm font-medium text-white hover:bg-brand-900"
      >
        Sign in
      </Link>
    </AuthCard>
  );
}
