import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { createIdleTimer } from '../../lib/idle-timer.ts';
import { portalConfig } from '../../lib/portal-config.ts';
import { logout, refreshSession } from '../../lib/session/session.ts';
import { useSession } from '../../lib/session/session-store.ts';

const ACTIVITY = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart', 'wheel'] as const;

/** Refreshes the token before it expires, and logs out after inactivity with a warning first (portal-core §4). */
export function SessionWatch() {
  const refreshAt = useSession((s) => s.refreshAt);
  const [warning, setWarning] = useState(false);
  const warningRef = useRef(false);
  const timer = useRef<ReturnType<typeof createIdleTimer>>(undefined);
  const showWarning = (show: boolean) => {
    warningRef.current = show;
    setWarning(show);
  };

  useEffect(() => {
    if (refreshAt === undefined) return;
    const handle = setTimeout(
      () => {
        void refreshSession().then((ok) => {
          if (!ok) logout({ message: 'something went wrong', callServer: false });
        });
      },
      Math.max(0, refreshAt - Date.now()),
    );
    return () => clearTimeout(handle);
  }, [refreshAt]);

  useEffect(() => {
    const { idleWarningSeconds, idleLogoutSeconds } = portalConfig();
    const idle = createIdleTimer({
      warnAfterMs: idleWarningSeconds * 1000,
      logoutAfterMs: idleLogoutSeconds * 1000,
      onWarn: () => showWarning(true),
      onLogout: () => {
        showWarning(false);
        logout({ message: 'You were logged out after a period of inactivity.' });
      },
    });
    timer.current = idle;
    // while the warning shows, moving the mouse does not count: only closing the modal keeps the session
    const onActivity = () => {
      if (!warningRef.current) idle.reset();
    };
    for (const e of ACTIVITY) window.addEventListener(e, onActivity, { passive: true });
    return () => {
      idle.stop();
      for (const e of ACTIVITY) window.removeEventListener(e, onActivity);
    };
  }, []);

  const stay = () => {
    showWarning(false);
    timer.current?.reset();
  };

  return (
    <Dialog
      open={warning}
      onOpenChange={(open) => !open && stay()}
      title="Are you still there?"
      description="You will be logged out soon because you have been inactive."
      footer={
        <>
          <Button variant="secondary" onClick={() => logout()}>
            Log out
          </Button>
          <Button onClick={stay}>Stay signed in</Button>
        </>
      }
    />
  );
}
