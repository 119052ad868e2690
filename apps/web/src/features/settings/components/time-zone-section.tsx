import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useBrowserTimeZone } from '../../../lib/browser-zone.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { browserTimeZone, useTimeZone } from '../../../lib/time-zone.tsx';
import { settingsMessages } from '../messages.ts';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/**
 * Settings' Time zone: which zone the portal's times, date filters and exports are in (UTC, or the browser's), and
 * the switch between them. The user's own choice: every role may change it.
 */
export function TimeZoneSection() {
  const t = useT(settingsMessages);
  const { zone, chosen, save } = useTimeZone();
  // the worker's answer, which the screen waits for before it shows its sections (the page's own lookup otherwise)
  const browser = useBrowserTimeZone() ?? browserTimeZone();
  const change = (next: string | null) =>
    save.mutate(
      { timeZone: next },
      {
        onSuccess: (data) => toast.show(translator(settingsMessages)('timeZone.saved', { zone: data.timeZone ?? 'UTC' })),
        onError: (err) => toast.show(err instanceof Error ? localizeMessage(err.message) : t('timeZone.saveFailed')),
      },
    );
  const other = chosen ? 'UTC' : browser;
  return (
    <Section {...SETTINGS_SECTIONS.timeZone()}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm" data-testid="time-zone-in-force">
          {t.rich(chosen ? 'timeZone.inForceBrowser' : 'timeZone.inForce', { b: (text) => <span className="font-semibold">{text}</span>, zone })}
        </p>
        {other !== zone && (
          <Button
            variant="secondary"
            size="sm"
            className="h-auto! min-h-8 py-1.5 text-left [overflow-wrap:anywhere]"
            loading={save.isPending}
            onClick={() => change(chosen ? null : browser)}
          >
            {chosen ? t('timeZone.useUtc') : t('timeZone.useBrowser', { zone: browser })}
          </Button>
        )}
      </div>
      {chosen && chosen !== browser && <p className="mt-3 text-xs text-muted">{t('timeZone.browserNow', { zone: browser })}</p>}
    </Section>
  );
}
