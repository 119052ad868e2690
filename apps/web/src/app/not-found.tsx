import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { Card } from '../components/ui/card.tsx';

export function NotFound() {
  const { t } = useTranslation(undefined, { i18n });
  return (
    <Card className="p-8 text-center">
      <h1 className="text-xl font-semibold">{t('notFound.title')}</h1>
      <p className="mt-2 text-muted">{t('notFound.body')}</p>
      <Link to="/" className="mt-6 inline-block font-medium text-brand-700 hover:underline">
        {t('common.backHome')}
      </Link>
    </Card>
  );
}
