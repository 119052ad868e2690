import { Link } from 'react-router';
import { Card } from '../components/ui/card.tsx';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

export function NotFound() {
  const t = useT(commonMessages);
  return (
    <Card className="p-8 text-center">
      <h1 className="text-xl font-semibold">{t('notFound.title')}</h1>
      <p className="mt-2 text-muted">{t('notFound.body')}</p>
      <Link to="/" className="mt-6 inline-block font-medium text-brand-700 hover:underline">
        {t('backHome')}
      </Link>
    </Card>
  );
}
