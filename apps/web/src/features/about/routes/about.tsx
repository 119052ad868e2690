import { BookOpen, ExternalLink, LifeBuoy } from 'lucide-react';
import type { ReactNode } from 'react';
import { API_PREFIX } from '@portal/contract/api';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { buildInfo } from '../../../lib/build-info.ts';
import { formatDate } from '../../../lib/format.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { portalConfig } from '../../../lib/portal-config.ts';
import { useT } from '../../../lib/i18n.ts';
import { aboutMessages } from '../messages.ts';

/** The product's name: a name, the same in every language (the logo's, the authenticator app's, the e-mails'). */
export const PRODUCT_NAME = 'Partner Dashboard';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-5 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted">{term}</dt>
      <dd className="min-w-0 break-words text-sm font-medium text-ink">{children}</dd>
    </div>
  );
}

function LinkCard({ href, icon, title, body, external }: { href: string; icon: ReactNode; title: string; body: ReactNode; external?: boolean }) {
  const t = useT(aboutMessages);
  return (
    <a
      href={href}
      {...(external ? { target: '_blank', rel: 'noopener' } : {})}
      className="flex items-start gap-4 rounded-xl border border-line bg-white p-5 hover:bg-canvas/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-600/20">{icon}</span>
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-1.5 text-sm font-semibold text-ink">
          {title}
          {external && <ExternalLink className="size-3.5 text-muted" aria-label={t('newTab')} />}
        </span>
        <span className="mt-0.5 block text-sm text-muted">{body}</span>
      </span>
    </a>
  );
}

/** About (portal-core §2): the product, its version and build, and where to read the API documentation or get help. */
export function AboutScreen() {
  const t = useT(aboutMessages);
  const partner = useProfile().data?.partner;
  const { supportEmail } = portalConfig();
  return (
    <div className="max-w-3xl">
      <PageHeader title={t('title')} description={t('description', { product: PRODUCT_NAME })} />
      <Card>
        <dl className="divide-y divide-line" data-testid="about-details">
          <Row term={t('product')}>{PRODUCT_NAME}</Row>
          <Row term={t('version')}>{buildInfo.version}</Row>
          <Row term={t('build')}>
            <span className="font-mono">{buildInfo.commit}</span>
            {buildInfo.builtAt && <span className="font-normal text-muted"> · {t('builtAt', { date: formatDate(buildInfo.builtAt) })}</span>}
          </Row>
          <Row term={t('api')}>{t('apiVersion', { prefix: API_PREFIX })}</Row>
          {partner && (
            <Row term={t('partner')}>
              {partner.name} <span className="block font-mono text-xs font-normal text-muted sm:inline">{partner.id}</span>
            </Row>
          )}
        </dl>
      </Card>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <LinkCard href="/api/docs" external icon={<BookOpen className="size-5" aria-hidden="true" />} title={t('docs.title')} body={t('docs.body')} />
        <LinkCard
          href={`mailto:${supportEmail}`}
          icon={<LifeBuoy className="size-5" aria-hidden="true" />}
          title={t('support.title')}
          body={
            <>
              <span className="block font-medium text-brand-800 [overflow-wrap:anywhere]">{supportEmail}</span>
              {t('support.body')}
            </>
          }
        />
      </div>
    </div>
  );
}
