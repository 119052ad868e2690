import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';
import { useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

export function AccountInactiveScreen() {
  const t = useT(authMessages);
  return (
    <AuthCard title={t('inactive.title')}>
      <p className="text-sm">{t('inactive.body')}</p>
      <Link to="/login" className="mt-6 inline-block text-sm font-medium text-brand-700 hover:underline">
        {t('backToSignIn')}
      </Link>
    </AuthCard>
  );
}
