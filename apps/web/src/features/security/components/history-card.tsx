import { Download, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { dayInZone } from '@portal/contract/time-zone';
import {
  describeSecurityEvent,
  SECURITY_KIND_LABELS,
  SECURITY_KINDS,
  securityHistoryCsv,
  type SecurityEvent,
  type SecurityKind,
} from '@portal/contract/security';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { downloadText } from '../../../lib/download.ts';
import { displayTimeZone, formatCount, formatDate } from '../../../lib/format.ts';
import { useTeam } from '../../../lib/partner/team.ts';
import { fetchWholeHistory, useHistory, type HistoryFilters } from '../api/security.ts';

const EVERYONE = '';
const ALL_KINDS = '';
const KIND_OPTIONS = [{ value: ALL_KINDS, label: 'All events' }, ...SECURITY_KINDS.map((k) => ({ value: k, label: SECURITY_KIND_LABELS[k] }))];

function EventRow({ event }: { event: SecurityEvent }) {
  return (
    <StackRow>
      <StackCell label="Time" className="text-muted sm:whitespace-nowrap">
        {formatDate(event.at)}
      </StackCell>
      <StackCell label="Person">
        <span className="block font-medium text-ink">{event.actor.label}</span>
        {event.actor.email && event.actor.email !== event.actor.label && <span className="block text-xs text-muted">{event.actor.email}</span>}
      </StackCell>
      <StackCell label="Event" wide className="sm:min-w-64">
        <span className="block text-ink">{describeSecurityEvent(event)}</span>
        <span className="block text-xs text-muted">{SECURITY_KIND_LABELS[event.kind]}</span>
      </StackCell>
      <StackCell label="Address and browser" wide>
        <span className="block font-mono text-xs text-ink">{event.ip ?? '—'}</span>
        {event.browser && <span className="block text-xs text-muted">{event.browser}</span>}
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
  const people = [
    { value: EVERYONE, label: 'Everyone' },
    ...(team.data ?? []).filter((m) => m.status === 'active' || m.status === 'inactive').map((m) => ({ value: m.id, label: `${m.name} (${m.email})` })),
  ];

  async function exportCsv() {
    setExported(0);
    try {
      const all = await fetchWholeHistory(filters, setExported);
      downloadText(`security-history-${dayInZone(Date.now(), zone)}.csv`, securityHistoryCsv(all, zone), 'text/csv;charset=utf-8');
    } catch (err) {
      toast.show(err instanceof Error ? err.message : 'The export could not be made.');
    } finally {
      setExported(undefined);
    }
  }

  return (
    <Card className="p-0">
      <div className="flex flex-col gap-1 border-b border-line px-5 py-4 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div>
          <h2 className="text-base font-semibold text-ink">Security history</h2>
          <p className="text-sm text-muted">
            {admin
              ? 'Sign-ins, sessions and every change to access and money settings made by your team. Nothing here can be edited.'
              : 'Your sign-ins, sessions and the changes you made. Admins of your team see everyone’s.'}{' '}
            Times in {zone}.
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
          {exported !== undefined ? `Exporting ${formatCount(exported)}…` : 'Export CSV'}
        </Button>
      </div>
      <div className="grid gap-3 border-b border-line px-5 py-4 sm:grid-cols-2 lg:grid-cols-4">
        {admin && (
          <div>
            <p className="mb-1 text-xs font-medium text-muted">Person</p>
            <SearchableSelect label="Person" options={people} value={person} onChange={setPerson} />
          </div>
        )}
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Event</p>
          <SearchableSelect label="Event" options={KIND_OPTIONS} value={kind} onChange={(v) => setKind(v as SecurityKind | typeof ALL_KINDS)} />
        </div>
        <label className="flex flex-col gap-1 text-xs font-medium text-muted">
          From
          <input type="date" className={inputClass} value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-muted">
          To
          <input type="date" className={inputClass} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      {history.isError && (
        <Alert tone="danger" className="m-5">
          {history.error.message}
        </Alert>
      )}
      {history.isPending ? (
        <RowSkeletons rows={5} mark="size-2" name="h-4 w-64" end="h-4 w-28" />
      ) : events.length === 0 ? (
        !history.isError && (
          <div className="flex flex-col items-center gap-2 px-6 py-14 text-center">
            <ShieldCheck className="size-8 text-brand-700" aria-hidden="true" />
            <p className="font-semibold text-ink">Nothing to show</p>
            <p className="text-sm text-muted">No event matches these filters. Try another person, kind or period.</p>
          </div>
        )
      ) : (
        <>
          <StackTable aria-label="Security history">
            <StackHead>
              <StackTh>Time</StackTh>
              <StackTh>Person</StackTh>
              <StackTh>Event</StackTh>
              <StackTh>Address and browser</StackTh>
            </StackHead>
            <StackBody>
              {events.map((e) => (
                <EventRow key={e.id} event={e} />
              ))}
            </StackBody>
          </StackTable>
          <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3 text-xs text-muted">
            <span>
              {formatCount(events.length)} {events.length === 1 ? 'event' : 'events'} shown
              {history.hasNextPage ? '' : ' · the oldest reached'}
            </span>
            {history.hasNextPage && (
              <Button variant="secondary" size="sm" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                Show more
              </Button>
            )}
          </div>
        </>
      )}
    </Card>
  );
}
