import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useBrowserTimeZone } from '../../../lib/browser-zone.ts';
import { browserTimeZone, useTimeZone } from '../../../lib/time-zone.tsx';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/**
 * Settings' Time zone: which zone the portal's times, date filters and exports are in (UTC, or the browser's), and
 * the switch between them. The user's own choice: every role may change it.
 */
export function TimeZoneSection() {
  const { zone, chosen, save } = useTimeZone();
  // the worker's answer, which the screen waits for before it shows its sections (the page's own lookup otherwise)
  const browser = useBrowserTimeZone() ?? browserTimeZone();
  const change = (next: string | null) =>
    save.mutate({ timeZone: next }, {
      onSuccess: (data) => toast.show(`Times are now shown in ${data.timeZone ?? 'UTC'}`),
      onError: (err) => toast.show(err instanceof Error ? err.message : 'Could not change the time zone. Try again.'),
    });
  const other = chosen ? 'UTC' : browser;
  return (
    <Section {...SETTINGS_SECTIONS.timeZone}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm" data-testid="time-zone-in-force">
          Times are shown in <span className="font-semibold">{zone}</span>
          {chosen ? ' (your browser’s time zone).' : '.'}
        </p>
        {other !== zone && (
          <Button variant="secondary" size="sm" loading={save.isPending} onClick={() => change(chosen ? null : browser)}>
            {chosen ? 'Use UTC' : `Use my browser’s time zone (${browser})`}
          </Button>
        )}
      </div>
      {chosen && chosen !== browser && <p className="mt-3 text-xs text-muted">Your browser is now in {browser}.</p>}
    </Section>
  );
}
