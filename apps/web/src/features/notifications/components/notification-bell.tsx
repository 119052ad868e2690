import { Bell } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { useAfterStart } from '../../../lib/after-start.ts';
import { useT } from '../../../lib/i18n.ts';
import { useNotifications } from '../api/notifications.ts';
import { notificationsMessages } from '../messages.ts';
import type { BellFace } from './notification-popover.tsx';

/** The unread count as the badge shows it. */
const badgeText = (n: number) => (n > 9 ? '9+' : String(n));

/** The list's popover, loaded once the frame has started: the frame's own chunk does not carry Radix's popover. */
const NotificationPopover = lazy(async () => ({ default: (await import('./notification-popover.tsx')).NotificationPopover }));

/**
 * The bell of the signed-in frame: how many notifications are unread, and the newest of them (withdrawals, wallet
 * reviews, country changes, the low balance alerts, changes of API keys, allowed IPs and webhooks). Opening one marks
 * it read and goes to its screen. The list follows the live stream; the e-mail choices are on Settings.
 */
export function NotificationBell({ className }: { className?: string }) {
  const t = useT(notificationsMessages);
  const [open, setOpen] = useState(false);
  const list = useNotifications(true);
  const unread = list.data?.unread ?? 0;

  // the popover comes right after the frame's first commit (its chunk loaded then); until then the same button, which
  // a click opens
  const [armed, arm] = useAfterStart();
  const face: BellFace = {
    className: cn('relative inline-flex size-9 items-center justify-center rounded-md hover:bg-white/10 data-[state=open]:bg-white/15', className),
    'aria-label': unread > 0 ? t('unread', { count: unread }) : t('title'),
    'data-testid': 'notification-bell',
    children: (
      <>
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute -right-0.5 -top-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-danger px-1 text-[10px] font-semibold leading-none text-white ring-2 ring-brand-900"
          >
            {badgeText(unread)}
          </span>
        )}
      </>
    ),
  };
  const plain = (
    <button
      type="button"
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      {...face}
      onClick={() => {
        setOpen(true);
        arm();
      }}
    />
  );
  if (!armed) return plain;
  return (
    <Suspense fallback={plain}>
      <NotificationPopover face={face} open={open} onOpenChange={setOpen} />
    </Suspense>
  );
}
