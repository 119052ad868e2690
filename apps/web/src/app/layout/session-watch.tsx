import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { createIdleTimer } from '../../lib/idle-timer.ts';
import { portalConfig } from '../../lib/portal-config.ts';
import { logout, refreshSession, sessionLostMessage } from '../../lib/session/session.ts';
import { useSession } from '../../lib/session/session-store.ts';
import { lastActivity, recordActivity } from '../../lib/session/tabs.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { frameMessages } from '../../lib/frame-messages.ts';
import { translator, useT } from '../../lib/i18n.ts';

const loadDialog = () => import('../../components/ui/dialog.tsx');
/** The warning's dialog, loaded a while after the frame has drawn (not in its first paint), before it can be needed. */
const Dialog = lazy(async () => ({ default: (await loadDialog()).Dialog }));
/** When the dialog's code is fetched ahead: long before the 300 idle seconds that show it. */
const DIALOG_AHEAD_MS = 20_000;

const ACTIVITY = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart', 'wheel'] as const;

/**
 * Refreshes the token before it expires, and logs out after inactivity with a warning first (portal-core §4). The
 * count is the browser's: activity in any tab keeps every tab signed in, the warning shows in every tab with the
 * seconds left, and "Stay signed in" in any of them closes it in all.
 */
export function SessionWatch() {
  const t = useT(frameMessages);
  const refreshAt = useSession((s) => s.refreshAt);
  const [secondsLeft, setSecondsLeft] = useState<number>();
  const warningRef = useRef(false);
  const showWarning = (left: number | undefined) => {
    warningRef.current = left !== undefined;
    setSecondsLeft(left);
  };

  useEffect(() => {
    if (refreshAt === undefined) return;
    const handle = setTimeout(
      () => {
        // an outage waits inside the refresh; false is a session the server refused
        void refreshSession().then((ok) => {
          if (!ok) logout({ message: sessionLostMessage(), callServer: false });
        });
      },
      Math.max(0, refreshAt - Date.now()),
    );
    return () => clearTimeout(handle);
  }, [refreshAt]);

  useEffect(() => {
    const { idleWarningSeconds, idleLogoutSeconds } = portalConfig();
    // opening the frame is activity (a stale time from a session long gone must not log this one out)
    recordActivity(Date.now(), true);
    const idle = createIdleTimer({
      warnAfterMs: idleWarningSeconds * 1000,
      logoutAfterMs: idleLogoutSeconds * 1000,
      lastActivity,
      onWarn: (left) => showWarning(left),
      onActive: () => showWarning(undefined),
      onLogout: () => {
        showWarning(undefined);
        logout({ message: translator(commonMessages)('session.inactive') });
      },
    });
    // while the warning shows, moving the mouse does not count: only closing the modal keeps the session
    const onActivity = () => {
      if (!warningRef.current) recordActivity();
    };
    // a tab shown again (its timers slowed while hidden) checks at once
    const onVisible = () => document.visibilityState === 'visible' && idle.check();
    for (const e of ACTIVITY) window.addEventListener(e, onActivity, { passive: true });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      idle.stop();
      for (const e of ACTIVITY) window.removeEventListener(e, onActivity);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  // the warning's code is here before it can be needed, even through an outage then
  useEffect(() => {
    const ahead = setTimeout(() => void loadDialog().catch(() => undefined), DIALOG_AHEAD_MS);
    return () => clearTimeout(ahead);
  }, []);

  const stay = () => {
    recordActivity(Date.now(), true);
    showWarning(undefined);
  };

  if (secondsLeft === undefined) return null;
  return (
    <Suspense fallback={null}>
      <Dialog
        open
        onOpenChange={(open) => !open && stay()}
        title={t('idle.title')}
        description={t('idle.description')}
        footer={
          <>
            <Button variant="secondary" onClick={() => logout()}>
              {t('idle.logOut')}
            </Button>
            <Button onClick={stay}>{t('idle.stay')}</Button>
          </>
        }
      >
        <p role="timer" aria-live="off" className="text-sm text-muted" data-testid="idle-countdown">
          {t.rich('idle.countdown', { count: secondsLeft, b: (text) => <span className="font-semibold tabular-nums text-ink">{text}</span> })}
        </p>
      </Dialog>
    </Suspense>
  );
}
