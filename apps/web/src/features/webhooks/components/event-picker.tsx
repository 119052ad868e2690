import { ChevronRight } from 'lucide-react';
import type { SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from '@portal/contract/domain';
import { WEBHOOK_EVENT_GROUPS, type WebhookEventType } from '@portal/contract/webhooks';
import { useT } from '../../../lib/i18n.ts';
import { webhooksMessages } from '../messages.ts';

type EventState = (typeof TRANSACTION_STATUSES)[number] | (typeof SETTLEMENT_STATUSES)[number];
const stateOf = (event: WebhookEventType) => event.split('.')[1]!.toLowerCase() as EventState;

const eventsOf = (group: (typeof WEBHOOK_EVENT_GROUPS)[number]) => group.states.map((s) => `${group.object}.${s.toUpperCase()}` as WebhookEventType);

/** The events an endpoint subscribes to, by object (collections, payments, settlements), each group foldable with "All". */
export function EventPicker({ value, onChange, error }: { value: WebhookEventType[]; onChange: (events: WebhookEventType[]) => void; error?: string }) {
  const t = useT(webhooksMessages);
  const chosen = new Set(value);
  const set = (events: WebhookEventType[], on: boolean) => {
    const next = new Set(chosen);
    for (const e of events) {
      if (on) next.add(e);
      else next.delete(e);
    }
    onChange([...next]);
  };
  return (
    <fieldset className="space-y-2" aria-describedby={error ? 'event-picker-error' : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-ink">{t('events.legend')}</legend>
      {WEBHOOK_EVENT_GROUPS.map((group) => {
        const events = eventsOf(group);
        const count = events.filter((e) => chosen.has(e)).length;
        const all = count === events.length;
        return (
          <details
            key={group.object}
            className="group rounded-lg border border-line bg-white"
            open={group.object === 'SETTLEMENT' || (count > 0 && count < events.length)}
          >
            <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2.5 text-sm">
              <ChevronRight className="size-4 text-muted transition-transform group-open:rotate-90" aria-hidden="true" />
              <span className="font-medium">{t(`events.group.${group.object}`)}</span>
              <span className="ml-auto text-right text-xs text-muted">{t('events.selected', { count, total: events.length })}</span>
            </summary>
            <div className="border-t border-line px-3 py-3">
              <label className="mb-2 flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" className="size-4 accent-brand-700" checked={all} onChange={(e) => set(events, e.target.checked)} />
                {t(`events.all.${group.object}`)}
              </label>
              <div className="grid grid-cols-1 gap-x-4 gap-y-1.5 sm:grid-cols-2">
                {events.map((event) => (
                  <label key={event} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" className="size-4 accent-brand-700" checked={chosen.has(event)} onChange={(e) => set([event], e.target.checked)} />
                    <span className="font-mono text-xs">{event}</span>
                    <span className="sr-only">{t(`state.${stateOf(event)}`)}</span>
                  </label>
                ))}
              </div>
            </div>
          </details>
        );
      })}
      {error && (
        <p id="event-picker-error" role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}
