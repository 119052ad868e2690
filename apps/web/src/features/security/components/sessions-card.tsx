import { Monitor, Smartphone } from 'lucide-react';
import { frenchBrowser, type ActiveSession } from '@portal/contract/security';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate } from '../../../lib/format.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { useEndSession, useSessions } from '../api/security.ts';
import { securityMessages } from '../messages.ts';

// the server names the system last ("Chrome 131 on Android")
const isPhone = (browser: string | null) => Boolean(browser && /\b(iOS|Android)$/.test(browser));

function SessionRow({ session, ending, onEnd }: { session: ActiveSession; ending: boolean; onEnd: () => void }) {
  const t = useT(securityMessages);
  const Icon = isPhone(session.browser) ? Smartphone : Monitor;
  const browser = session.browser && (t.language === 'fr' ? frenchBrowser(session.browser) : session.browser);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4 sm:flex-nowrap">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-canvas text-muted ring-1 ring-line">
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          {browser ?? t('sessions.unknownBrowser')}
          {session.current && <Badge tone="success">{t('sessions.thisBrowser')}</Badge>}
        </p>
        <p className="text-xs text-muted">
          {t('sessions.line', {
            ip: session.ip ?? t('sessions.unknownAddress'),
            signedIn: formatDate(session.createdAt),
            lastSeen: formatDate(session.lastSeenAt),
          })}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          loading={ending}
          onClick={onEnd}
          aria-label={browser ? t('sessions.endLabel', { browser }) : t('sessions.endLabelUnknown')}
        >
          {t('sessions.end')}
        </Button>
      )}
    </li>
  );
}

/** The caller's open sessions: each browser signed in, where from, when last seen; any but this one can be ended. */
export function SessionsCard() {
  const t = useT(securityMessages);
  const sessions = useSessions();
  const end = useEndSession();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Card className="mb-6 p-0">
      <div className="border-b border-line px-5 py-4">
        <h2 className="text-base font-semibold text-ink">{t('sessions.title')}</h2>
        <p className="text-sm text-muted">
          {t('sessions.description')}
          {sessions.isSuccess && others === 0 && ` ${t('sessions.onlyHere')}`}
        </p>
      </div>
      <ErrorAlert error={sessions.error} className="m-5" />
      <ErrorAlert error={end.error} className="m-5" />
      {sessions.isPending ? (
        <RowSkeletons rows={2} mark="size-9 rounded-full" name="h-4 w-48" end="h-8 w-24" />
      ) : (
        <ul className="divide-y divide-line" aria-label={t('sessions.title')}>
          {sessions.data?.map((s) => (
            <SessionRow
              key={s.id}
              session={s}
              ending={end.isPending && end.variables === s.id}
              onEnd={() => end.mutate(s.id, { onSuccess: () => toast.show(translator(securityMessages)('sessions.ended')) })}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}
