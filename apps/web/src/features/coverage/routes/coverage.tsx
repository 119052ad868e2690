import { ArrowLeft, Landmark } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { countryByLocale } from '@portal/contract/countries';
import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { SearchField } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { formatCount } from '../../../lib/format.ts';
import { localizeMessage, useT, type MessageKey } from '../../../lib/i18n.ts';
import type en from '../../../locales/en/coverage.json';
import { useChannels } from '../api/channels.ts';
import { useNetworks } from '../api/networks.ts';
import { ChannelsTable, NetworksTable } from '../components/channels-table.tsx';
import {
  NO_FILTERS,
  channelTypeText,
  channelTypesOf,
  countrySummaries,
  filterCoverage,
  type CountrySummary,
  type CoverageFilters,
  type RampFilter,
} from '../coverage.ts';
import { coverageMessages } from '../messages.ts';

/** The direction filter's choices; their labels are looked up where they are drawn. */
const RAMPS: { value: RampFilter; label: MessageKey<typeof en> }[] = [
  { value: 'all', label: 'filter.all' },
  { value: 'deposit', label: 'ramp.deposit' },
  { value: 'withdraw', label: 'ramp.withdraw' },
];

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Card className="mt-4">
      <h2 className="flex items-center gap-2 border-b border-line px-5 py-3 text-sm font-semibold text-ink">
        {title} <span className="rounded-full bg-canvas px-2 py-0.5 text-xs font-medium text-muted">{formatCount(count)}</span>
      </h2>
      {children}
    </Card>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="px-5 py-8 text-center text-sm text-muted">{children}</p>;

/** Every country at a glance: channels in and out, networks, channel types; a card opens the country. */
function Overview({ summaries, onPick }: { summaries: CountrySummary[]; onPick: (country: string) => void }) {
  const t = useT(coverageMessages);
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t('overview.label')}>
      {summaries.map((s) => (
        <li key={s.country}>
          <button type="button" onClick={() => onPick(s.country)} className="flex w-full flex-col gap-3 rounded-xl border border-line bg-white p-4 text-left shadow-[0_1px_2px_rgba(16,24,40,0.04)] hover:border-brand-600/40 hover:bg-brand-50/40">
            <span className="flex items-center gap-3">
              <CountryFlag locale={s.country} className="h-[18px] w-6" />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-ink">{s.name}</span>
                <span className="block text-xs text-muted">{s.currency}</span>
              </span>
            </span>
            <span className="grid grid-cols-3 gap-2 text-xs">
              <span>
                <span className="block text-base font-semibold tabular-nums text-ink">{formatCount(s.deposit)}</span>
                <span className="text-muted">{t('overview.deposit')}</span>
              </span>
              <span>
                <span className="block text-base font-semibold tabular-nums text-ink">{formatCount(s.withdraw)}</span>
                <span className="text-muted">{t('overview.withdrawal')}</span>
              </span>
              <span>
                <span className="block text-base font-semibold tabular-nums text-ink">{formatCount(s.networks)}</span>
                <span className="text-muted">{t('overview.networks')}</span>
              </span>
            </span>
            <span className="flex flex-wrap gap-1.5">
              {s.types.map((type) => (
                <span key={type} className="rounded-md bg-canvas px-2 py-0.5 text-[11px] text-muted ring-1 ring-inset ring-line">
                  {channelTypeText(t, type)}
                </span>
              ))}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function CountryCoverage({ summary, channels, networks }: { summary: CountrySummary; channels: Channel[]; networks: PaymentNetwork[] }) {
  const t = useT(coverageMessages);
  const [filters, setFilters] = useState<CoverageFilters>(NO_FILTERS);
  const own = useMemo(() => channels.filter((c) => c.country === summary.country), [channels, summary.country]);
  const types = channelTypesOf(own);
  const shown = filterCoverage(summary.country, channels, networks, filters);
  const set = (patch: Partial<CoverageFilters>) => setFilters((f) => ({ ...f, ...patch }));
  return (
    <>
      <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center">
        <div className="flex flex-1 items-center gap-3">
          <CountryFlag locale={summary.country} className="h-6 w-8" />
          <div>
            <h2 className="text-lg font-semibold text-ink">{summary.name}</h2>
            <p className="text-xs text-muted">
              {t('country.dialling', { currency: summary.currency, code: countryByLocale(summary.country)?.code ?? '' })}
            </p>
          </div>
        </div>
        <dl className="grid grid-cols-3 gap-4 text-sm sm:gap-8">
          {(
            [
              ['country.depositChannels', summary.deposit],
              ['country.withdrawalChannels', summary.withdraw],
              ['country.networks', summary.networks],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-muted">{t(label)}</dt>
              <dd className="text-lg font-semibold tabular-nums text-ink">{formatCount(value)}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <div className="mt-4 flex flex-col gap-3 lg:flex-row lg:items-center">
        <Segmented label={t('filter.direction')} value={filters.ramp} options={RAMPS.map((r) => ({ value: r.value, label: t(r.label) }))} onChange={(ramp) => set({ ramp })} />
        <Segmented
          label={t('filter.type')}
          value={filters.type}
          options={[{ value: 'all', label: t('filter.allTypes') }, ...types.map((type) => ({ value: type, label: channelTypeText(t, type) }))]}
          onChange={(v) => set({ type: v })}
        />
        <SearchField
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={filters.query}
          onChange={(query) => set({ query })}
          className="lg:ml-auto lg:w-72"
        />
      </div>
      <Section title={t('section.channels')} count={shown.channels.length}>
        {shown.channels.length === 0 ? <Empty>{t('empty.channels')}</Empty> : <ChannelsTable channels={shown.channels} />}
      </Section>
      <Section title={t('section.networks')} count={shown.networks.length}>
        {shown.networks.length === 0 ? <Empty>{t('empty.networks')}</Empty> : <NetworksTable networks={shown.networks} channels={own} />}
      </Section>
    </>
  );
}

/** Coverage (/coverage): which channels and networks reach each country, for an operations person to scan. */
export function CoverageScreen() {
  const t = useT(coverageMessages);
  const channels = useChannels();
  const networks = useNetworks();
  const [params, setParams] = useSearchParams();
  const summaries = useMemo(() => countrySummaries(channels.data?.channels ?? [], networks.data?.networks ?? []), [channels.data, networks.data]);
  const selected = summaries.find((s) => s.country === params.get('country')?.toUpperCase());
  const pick = (country: string | undefined) => setParams(country ? { country } : {});
  const loading = channels.isPending || networks.isPending;
  const failed = channels.error ?? networks.error;

  return (
    <div>
      <PageHeader title={t('title')} description={t('description')} />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="sm:w-72">
          <SearchableSelect
            label={t('picker.label')}
            placeholder={t('picker.placeholder')}
            searchPlaceholder={t('picker.search')}
            options={summaries.map((s) => ({ value: s.country, label: s.name }))}
            value={selected?.country}
            onChange={(c) => pick(c)}
            disabled={loading || !!failed}
            variant="b2b"
          />
        </div>
        {selected && (
          <button type="button" onClick={() => pick(undefined)} className="inline-flex items-center gap-1.5 self-start text-sm font-medium text-brand-700 hover:underline sm:self-auto">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('allCountries')}
          </button>
        )}
      </div>
      {failed ? (
        <Alert tone="danger">{t('loadFailed', { reason: localizeMessage(failed.message) })}</Alert>
      ) : loading ? (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t('loading')}>
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-36 animate-pulse rounded-xl bg-white ring-1 ring-line" />
          ))}
        </div>
      ) : summaries.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 px-6 py-12 text-center">
          <Landmark className="size-6 text-muted" aria-hidden="true" />
          <p className="font-medium text-ink">{t('empty')}</p>
        </Card>
      ) : selected ? (
        <CountryCoverage key={selected.country} summary={selected} channels={channels.data!.channels} networks={networks.data!.networks} />
      ) : (
        <Overview summaries={summaries} onPick={pick} />
      )}
    </div>
  );
}
