import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { NewPasswordForm } from '../components/new-password-form.tsx';
import { useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/**
 * The new-password step of an invited user (NEW_PASSWORD_REQUIRED, begun by the invitation's link, whose token
 * stands for the temporary password); then it signs in and meets MFA setup.
 */
export function ResetPasswordScreen() {
  const t = useT(authMessages);
  const { temporaryLogin, tempPassword, invitation } = useSession();
  const reset = useSession((s) => s.reset);
  if (!temporaryLogin || !tempPassword) {
    return (
      <AuthCard title={t('choosePassword')}>
        <Alert tone="danger">{t('reset.noTemporaryLogin')}</Alert>
        <Link to="/login" onClick={reset} className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          {t('backToSignIn')}
        </Link>
      </AuthCard>
    );
  }
  return <NewPasswordForm email={temporaryLogin.email} tempPassword={tempPassword} invitation={invitation} />;
}
