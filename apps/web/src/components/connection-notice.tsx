import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { tryNow, useConnection } from '../lib/connection.ts';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

/**
 * "Reconnecting...": shown while the server cannot be reached (or answers that it is away for a moment). The screen
 * stays as it was; reads go again when the server is back; the notice says when the next try is and offers one now.
 * On a phone its words may take two lines (French runs longer), so it rounds its corners less there.
 */
export function ConnectionNotice() {
  const t = useT(commonMessages);
  const connection = useConnection();
  const [now, setNow] = useState(() => Date.now());
  const reconnecting = connection.status === 'reconnecting';
  useEffect(() => {
    if (!reconnecting) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const every = setInterval(tick, 500);
    return () => {
      clearTimeout(first);
      clearInterval(every);
    };
  }, [reconnecting]);
  if (!reconnecting) return null;
  const seconds = Math.max(0, Math.ceil((connection.nextTryAt - now) / 1000));
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex justify-center px-3 sm:bottom-auto sm:top-3">
      <div
        role="status"
        data-testid="connection-notice"
        className="pointer-events-auto flex max-w-full items-center gap-2 rounded-2xl border border-warning/25 bg-warning-soft py-1.5 pl-3 pr-1.5 text-xs text-warning shadow-md sm:gap-3 sm:whitespace-nowrap sm:rounded-full sm:text-sm"
      >
        <RefreshCw className="size-4 shrink-0 animate-spin [animation-duration:2s]" aria-hidden="true" />
        <span className="min-w-0">
          <span className="font-semibold">{t('connection.reconnecting')}</span>{' '}
          <span className="text-warning/90">{seconds > 0 ? t('connection.nextTry', { seconds }) : t('connection.tryingNow')}</span>
        </span>
        <button
          type="button"
          onClick={tryNow}
          className="shrink-0 rounded-full bg-white/70 px-3 py-1 text-xs font-semibold text-warning ring-1 ring-warning/25 hover:bg-white"
        >
          {t('connection.tryNow')}
        </button>
      </div>
    </div>
  );
}
