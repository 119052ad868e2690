import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { NewPasswordForm } from '../components/new-password-form.tsx';

/**
 * The new-password step of an invited user (NEW_PASSWORD_REQUIRED, begun by the invitation's link, whose token
 * stands for the temporary password); then it signs in and meets MFA setup.
 */
export function ResetPasswordScreen() {
  const { temporaryLogin, tempPassword, invitation } = useSession();
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
  return <NewPasswordForm email={temporaryLogin.email} tempPassword={tempPassword} invitation={invitation} />;
}
