import { can } from '@portal/contract/permissions';
import { Globe2 } from 'lucide-react';
import { useState } from 'react';
import type { PartnerRate } from '@portal/contract/rates';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { SearchField } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { formatCount } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { usePartnerRates } from '../../../lib/partner/rates.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { ChangeRequestDialog } from '../components/change-request-dialog.tsx';
import { CountriesTable } from '../components/countries-table.tsx';
import { STATUS_FILTERS, rateCounts, visibleRates, type StatusFilter } from '../countries.ts';
import { countriesMessages } from '../messages.ts';

function Stat({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="flex items-center gap-2 rounded-lg border border-line bg-white px-3 py-2">
      <span className={cn('size-2 rounded-full', tone)} aria-hidden="true" />
      <span className="text-sm font-semibold tabular-nums text-ink">{formatCount(value)}</span>
      <span className="text-sm text-muted">{label}</span>
    </div>
  );
}

/** Enabled countries (/countries): the countries the partner serves and the changes its admins ask for. */
export function CountriesScreen() {
  const t = useT(countriesMessages);
  const rates = usePartnerRates();
  const profile = useProfile();
  const role = useSession((s) => s.user?.role);
  const userId = useSession((s) => s.user?.id);
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [changing, setChanging] = useState<PartnerRate>();
  const all = rates.data?.rates ?? [];
  const shown = visibleRates(all, query, filter);
  const counts = rateCounts(all);
  const admin = can(role, 'changeCountries');

  return (
    <div>
      <PageHeader title={t('title')} description={t('description')} />
      {rates.isError && <Alert tone="danger">{localizeMessage(rates.error.message)}</Alert>}
      {rates.isSuccess && (
        <div className="mb-4 flex flex-wrap gap-2" aria-label={t('summary.label')}>
          <Stat label={t('summary.enabled', { count: counts.enabled })} value={counts.enabled} tone="bg-success" />
          <Stat label={t('summary.pending')} value={counts.pending} tone="bg-warning" />
          <Stat label={t('summary.available', { count: counts.disabled })} value={counts.disabled} tone="bg-muted/50" />
        </div>
      )}
      <Card>
        <div className="flex flex-col gap-3 border-b border-line p-4 sm:flex-row sm:items-center sm:justify-between">
          <SearchField label={t('search.label')} placeholder={t('search.placeholder')} value={query} onChange={setQuery} className="sm:w-72" />
          <Segmented
            label={t('filter.label')}
            value={filter}
            options={STATUS_FILTERS.map((f) => ({ value: f.value, label: t(f.label) }))}
            onChange={setFilter}
            className="sm:self-auto"
          />
        </div>
        {rates.isPending ? (
          <div className="space-y-3 p-5" aria-label={t('loading')}>
            {Array.from({ length: 6 }, (_, i) => (
              <div key={i} className="h-9 animate-pulse rounded bg-canvas" />
            ))}
          </div>
        ) : shown.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <Globe2 className="size-6 text-muted" aria-hidden="true" />
            <p className="font-medium text-ink">{all.length === 0 ? t('empty.noneTitle') : t('empty.noMatchTitle')}</p>
            <p className="text-sm text-muted">{all.length === 0 ? t('empty.noneBody') : t('empty.noMatchBody')}</p>
          </div>
        ) : (
          <CountriesTable rates={shown} canChange={admin} onChange={setChanging} userId={userId} />
        )}
        {!admin && rates.isSuccess && <p className="border-t border-line px-5 py-3 text-xs text-muted">{t('adminsOnly')}</p>}
      </Card>
      {changing && <ChangeRequestDialog rate={changing} partnerName={profile.data?.partner.name ?? t('yourBusiness')} onClose={() => setChanging(undefined)} />}
    </div>
  );
}
