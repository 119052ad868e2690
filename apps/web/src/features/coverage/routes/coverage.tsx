import { ArrowLeft, Landmark, Search } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { countryByLocale } from '@portal/contract/countries';
import { channelTypeName, type Channel, type PaymentNetwork } from '@portal/contract/coverage';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { useChannels } from '../api/channels.ts';
import { useNetworks } from '../api/networks.ts';
import { ChannelsTable, NetworksTable } from '../components/channels-table.tsx';
import { NO_FILTERS, channelTypesOf, countrySummaries, filterCoverage, type CountrySummary, type CoverageFilters, type RampFilter } from '../coverage.ts';

const RAMPS: { value: RampFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'deposit', label: 'Deposit' },
  { value: 'withdraw', label: 'Withdrawal' },
];

function Segmented({ label, value, options, onChange }: { label: string; value: string; options: { value: string; label: string }[]; onChange: (v: string) => void }) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex max-w-full self-start overflow-x-auto rounded-lg border border-line bg-canvas p-0.5">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn('shrink-0 whitespace-nowrap rounded-md px-3 py-1.5 text-xs font-medium', value === o.value ? 'bg-white text-ink shadow-sm' : 'text-muted hover:text-ink')}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Card className="mt-4">
      <h2 className="flex items-center gap-2 border-b border-line px-5 py-3 text-sm font-semibold text-ink">
        {title} <span className="rounded-full bg-canvas px-2 py-0.5 text-xs font-medium text-muted">{count}</span>
      </h2>
      {children}
    </Card>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="px-5 py-8 text-center text-sm text-muted">{children}</p>;

/** Every country at a glance: channels in and out, networks, channel types; a card opens the country. */
function Overview({ summaries, onPick }: { summaries: CountrySummary[]; onPick: (country: string) => void }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Countries covered">
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
                <span className="block text-base font-semibold tabular-nums text-ink">{s.deposit}</span>
                <span className="text-muted">deposit</span>
              </span>
              <span>
                <span className="block text-base font-semibold tabular-nums text-ink">{s.withdraw}</span>
                <span className="text-muted">withdrawal</span>
              </span>
              <span>
                <span className="block text-base font-semibold tabular-nums text-ink">{s.networks}</span>
                <span className="text-muted">networks</span>
              </span>
            </span>
            <span className="flex flex-wrap gap-1.5">
              {s.types.map((t) => (
                <span key={t} className="rounded-md bg-canvas px-2 py-0.5 text-[11px] text-muted ring-1 ring-inset ring-line">
                  {channelTypeName(t)}
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
              {summary.currency} · dialling code {countryByLocale(summary.country)?.code}
            </p>
          </div>
        </div>
        <dl className="grid grid-cols-3 gap-4 text-sm sm:gap-8">
          {[
            ['Deposit channels', summary.deposit],
            ['Withdrawal channels', summary.withdraw],
            ['Networks', summary.networks],
          ].map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums text-ink">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <div className="mt-4 flex flex-col gap-3 lg:flex-row lg:items-center">
        <Segmented label="Direction" value={filters.ramp} options={RAMPS} onChange={(v) => set({ ramp: v as RampFilter })} />
        <Segmented label="Channel type" value={filters.type} options={[{ value: 'all', label: 'All types' }, ...types.map((t) => ({ value: t, label: channelTypeName(t) }))]} onChange={(v) => set({ type: v })} />
        <div className="relative lg:ml-auto lg:w-72">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted" aria-hidden="true" />
          <input type="search" className={cn(inputClass, 'pl-9')} placeholder="Search network or channel" aria-label="Search networks and channels" value={filters.query} onChange={(e) => set({ query: e.target.value })} />
        </div>
      </div>
      <Section title="Channels" count={shown.channels.length}>
        {shown.channels.length === 0 ? <Empty>No channel matches these filters.</Empty> : <ChannelsTable channels={shown.channels} />}
      </Section>
      <Section title="Networks" count={shown.networks.length}>
        {shown.networks.length === 0 ? <Empty>No network matches these filters.</Empty> : <NetworksTable networks={shown.networks} channels={own} />}
      </Section>
    </>
  );
}

/** Coverage (/coverage): which channels and networks reach each country, for an operations person to scan. */
export function CoverageScreen() {
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
      <PageHeader
        title="Coverage"
        description="How money reaches each country: deposit and withdrawal channels with their limits, fees and settlement times, and the mobile-money operators and banks they pay into."
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="sm:w-72">
          <SearchableSelect
            label="Country"
            placeholder="Choose a country"
            searchPlaceholder="Search..."
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
            All countries
          </button>
        )}
      </div>
      {failed ? (
        <Alert tone="danger">Coverage could not be loaded: {failed.message}</Alert>
      ) : loading ? (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Loading...">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-36 animate-pulse rounded-xl bg-white ring-1 ring-line" />
          ))}
        </div>
      ) : summaries.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 px-6 py-12 text-center">
          <Landmark className="size-6 text-muted" aria-hidden="true" />
          <p className="font-medium text-ink">No coverage published yet</p>
        </Card>
      ) : selected ? (
        <CountryCoverage key={selected.country} summary={selected} channels={channels.data!.channels} networks={networks.data!.networks} />
      ) : (
        <Overview summaries={summaries} onPick={pick} />
      )}
    </div>
  );
}
