import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../lib/i18n.ts';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/** The screen of a part that a later change builds: its title and a plain note. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation(undefined, { i18n });
  return (
    <div>
      <PageHeader title={title} />
      <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
        <Construction className="size-10 text-brand-600" aria-hidden="true" />
        <h2 className="text-base font-semibold">{t('common.comingSoon')}</h2>
        <p className="max-w-sm text-sm text-muted">{t('common.comingSoonBody')}</p>
      </Card>
    </div>
  );
}
