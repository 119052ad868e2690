import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card.tsx';
import { useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

export function PasswordChangedScreen() {
  const t = useT(authMessages);
  return (
    <AuthCard title={t('changed.title')}>
      <div className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
        <p className="text-sm">{t('changed.body')}</p>
      </div>
      <Link
        to="/login"
        className="mt-6 inline-flex h-10 w-full items-center justify-center rounded-lg bg-brand-800 text-sm font-medium text-white hover:bg-brand-900"
      >
        {t('changed.signIn')}
      </Link>
    </AuthCard>
  );
}
