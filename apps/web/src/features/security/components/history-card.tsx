import { Download, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { dayInZone } from '@portal/contract/time-zone';
import { SECURITY_KINDS, securityEventTexts, securityHistoryCsv, securityKindLabel, type SecurityEvent, type SecurityKind } from '@portal/contract/security';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { downloadText } from '../../../lib/download.ts';
import { displayTimeZone, formatDate } from '../../../lib/format.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useTeam } from '../../../lib/partner/team.ts';
import { fetchWholeHistory, useHistory, type HistoryFilters } from '../api/security.ts';
import { securityMessages } from '../messages.ts';

const EVERYONE = '';
const ALL_KINDS = '';
/** The export's file name, with today's date in the zone the portal shows (a machine name: not translated). */
const exportName = (zone: string) => `security-history-${dayInZone(Date.now(), zone)}.csv`;

function EventRow({ event }: { event: SecurityEvent }) {
  const t = useT(securityMessages);
  // the sentence, kind, person and browser in the language in force (the contract writes both languages)
  const texts = securityEventTexts(event, t.language);
  return (
    <StackRow>
      <StackCell label={t('history.time')} className="text-muted sm:whitespace-nowrap">
        {formatDate(event.at)}
      </StackCell>
      <StackCell label={t('history.person')}>
        <span className="block font-medium text-ink">{texts.person}</span>
        {event.actor.email && event.actor.email !== event.actor.label && <span className="block text-xs text-muted">{event.actor.email}</span>}
      </StackCell>
      <StackCell label={t('history.event')} wide className="sm:min-w-64">
        <span className="block text-ink">{texts.description}</span>
        <span className="block text-xs text-muted">{texts.kind}</span>
      </StackCell>
      <StackCell label={t('history.addressBrowser')} wide>
        <span className="block font-mono text-xs text-ink">{event.ip ?? '—'}</span>
        {texts.browser && <span className="block text-xs text-muted">{texts.browser}</span>}
      </StackCell>
    </StackRow>
  );
}

/**
 * The security history: admins read the team's and choose a person, everyone else reads their own. Filters by kind
 * and by calendar days in the zone the portal shows; the newest first, more on demand; exported as CSV (up to
 * 10,000 rows, the filters applied).
 */
export function HistoryCard({ admin }: { admin: boolean }) {
  const t = useT(securityMessages);
  const zone = displayTimeZone();
  const [person, setPerson] = useState(EVERYONE);
  const [kind, setKind] = useState<SecurityKind | typeof ALL_KINDS>(ALL_KINDS);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [exported, setExported] = useState<number>();
  const team = useTeam();
  const filters: HistoryFilters = {
    person: admin && person ? person : undefined,
    kind: kind || undefined,
    from: from || undefined,
    to: to || undefined,
    timeZone: zone,
  };
  const history = useHistory(filters);
  const events = history.data?.pages.flatMap((p) => p.items) ?? [];
  const kinds = [{ value: ALL_KINDS, label: t('history.allEvents') }, ...SECURITY_KINDS.map((k) => ({ value: k, label: securityKindLabel(k, t.language) }))];
  const people = [
    { value: EVERYONE, label: t('history.everyone') },
    ...(team.data ?? []).filter((m) => m.status === 'active' || m.status === 'inactive').map((m) => ({ value: m.id, label: `${m.name} (${m.email})` })),
  ];

  async function exportCsv() {
    setExported(0);
    try {
      const all = await fetchWholeHistory(filters, setExported);
      downloadText(exportName(zone), securityHistoryCsv(all, zone), 'text/csv;charset=utf-8');
    } catch (err) {
      toast.show(err instanceof Error ? localizeMessage(err.message) : translator(securityMessages)('history.exportFailed'));
    } finally {
      setExported(undefined);
    }
  }

  return (
    <Card className="p-0">
      <div className="flex flex-col gap-1 border-b border-line px-5 py-4 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div>
          <h2 className="text-base font-semibold text-ink">{t('history.title')}</h2>
          <p className="text-sm text-muted">
            {t(admin ? 'history.adminDescription' : 'history.ownDescription')} {t('history.zone', { zone })}
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          className="mt-2 shrink-0 sm:mt-0"
          loading={exported !== undefined}
          disabled={events.length === 0}
          onClick={() => void exportCsv()}
        >
          <Download className="size-4" aria-hidden="true" />
          {exported !== undefined ? t('history.exporting', { count: exported }) : t('history.export')}
        </Button>
      </div>
      <div className="grid gap-3 border-b border-line px-5 py-4 sm:grid-cols-2 lg:grid-cols-4">
        {admin && (
          <div>
            <p className="mb-1 text-xs font-medium text-muted">{t('history.person')}</p>
            <SearchableSelect label={t('history.person')} options={people} value={person} onChange={setPerson} />
          </div>
        )}
        <div>
          <p className="mb-1 text-xs font-medium text-muted">{t('history.event')}</p>
          <SearchableSelect label={t('history.event')} options={kinds} value={kind} onChange={(v) => setKind(v as SecurityKind | typeof ALL_KINDS)} />
        </div>
        <label className="flex flex-col gap-1 text-xs font-medium text-muted">
          {t('history.from')}
          <input type="date" className={inputClass} value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-muted">
          {t('history.to')}
          <input type="date" className={inputClass} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      <ErrorAlert error={history.error} className="m-5" />
      {history.isPending ? (
        <RowSkeletons rows={5} mark="size-2" name="h-4 w-64" end="h-4 w-28" />
      ) : events.length === 0 ? (
        !history.isError && (
          <div className="flex flex-col items-center gap-2 px-6 py-14 text-center">
            <ShieldCheck className="size-8 text-brand-700" aria-hidden="true" />
            <p className="font-semibold text-ink">{t('history.emptyTitle')}</p>
            <p className="text-sm text-muted">{t('history.emptyBody')}</p>
          </div>
        )
      ) : (
        <>
          <StackTable aria-label={t('history.title')}>
            <StackHead>
              <StackTh>{t('history.time')}</StackTh>
              <StackTh>{t('history.person')}</StackTh>
              <StackTh>{t('history.event')}</StackTh>
              <StackTh>{t('history.addressBrowser')}</StackTh>
            </StackHead>
            <StackBody>
              {events.map((e) => (
                <EventRow key={e.id} event={e} />
              ))}
            </StackBody>
          </StackTable>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-5 py-3 text-xs text-muted">
            <span>
              {t('history.shown', { count: events.length })}
              {history.hasNextPage ? '' : ` · ${t('history.oldestReached')}`}
            </span>
            {history.hasNextPage && (
              <Button variant="secondary" size="sm" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                {t('history.more')}
              </Button>
            )}
          </div>
        </>
      )}
    </Card>
  );
}
