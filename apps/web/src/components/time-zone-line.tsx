import { Globe } from 'lucide-react';
import { useBrowserTimeZone } from '../lib/browser-zone.ts';
import { useTimeZone } from '../lib/time-zone.tsx';
import { toast } from './ui/toast-store.ts';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

/**
 * The zone the times on screen are in, and the switch to the other one: "Times in UTC · Use Africa/Nairobi", or
 * "Times in Africa/Nairobi · Use UTC". Shown near the tables; the same choice as Settings' Time zone.
 */
export function TimeZoneLine() {
  const t = useT(commonMessages);
  const { zone, chosen, save } = useTimeZone();
  // the browser's zone, from a worker: the offer to switch to it shows once it is known
  const browser = useBrowserTimeZone();
  const next = chosen ? null : browser;
  const offer = chosen ? 'UTC' : browser !== undefined && browser !== 'UTC' ? browser : undefined;
  const change = () => save.mutate({ timeZone: next ?? null }, { onError: (err) => toast.show(err instanceof Error ? err.message : t('timeZone.failed')) });
  return (
    <p className="flex flex-wrap items-center gap-x-1.5 gap-y-1 px-4 py-2 text-xs text-muted" data-testid="time-zone-line">
      <Globe className="size-3.5 shrink-0" aria-hidden="true" />
      <span>{t.rich('timeZone.in', { zone, b: (text) => <span className="font-medium text-ink">{text}</span> })}</span>
      {offer && (
        <>
          <span aria-hidden="true">·</span>
          <button
            type="button"
            className="font-medium text-brand-700 underline-offset-2 hover:underline disabled:text-muted"
            disabled={save.isPending}
            onClick={change}
          >
            {t('timeZone.use', { zone: offer })}
          </button>
        </>
      )}
    </p>
  );
}
