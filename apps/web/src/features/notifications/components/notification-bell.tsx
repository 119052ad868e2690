import { Bell } from 'lucide-react';
import { topicLabel } from '../../../lib/labels.ts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Popover } from 'radix-ui';
import type { Notification } from '@portal/contract/notifications';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAfterStart } from '../../../lib/after-start.ts';
import { formatDate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { useMarkRead, useNotifications } from '../api/notifications.ts';
import { notificationsMessages } from '../messages.ts';

/** The unread count as the badge shows it. */
const badgeText = (n: number) => (n > 9 ? '9+' : String(n));

/**
 * The bell of the signed-in frame: how many notifications are unread, and the newest of them (withdrawals, wallet
 * reviews, country changes, the low balance alerts, changes of API keys, allowed IPs and webhooks). Opening one marks
 * it read and goes to its screen. The list follows the live stream; the e-mail choices are on Settings.
 */
export function NotificationBell({ className }: { className?: string }) {
  const t = useT(notificationsMessages);
  const [open, setOpen] = useState(false);
  const list = useNotifications(true);
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const unread = list.data?.unread ?? 0;
  const items = list.data?.items ?? [];

  // the popover comes right after the frame's first commit; until then the same button, which a click opens
  const [armed, arm] = useAfterStart();
  const face = {
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
  if (!armed)
    return (
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

  const openItem = (n: Notification) => {
    if (!n.readAt) markRead.mutate({ ids: [n.id] });
    setOpen(false);
    void navigate(n.link);
  };

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger {...face} />
      <Popover.Portal>
        <Popover.Content
          align="start"
          side="bottom"
          sideOffset={6}
          collisionPadding={12}
          className="z-50 flex max-h-[min(32rem,calc(100dvh-6rem))] w-[min(24rem,calc(100vw-1.5rem))] flex-col rounded-xl border border-line bg-white text-ink shadow-xl"
          aria-label={t('title')}
        >
          <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
            <h2 className="text-sm font-semibold">{t('title')}</h2>
            <Button variant="ghost" size="sm" disabled={unread === 0} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
              {t('markAll')}
            </Button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto" data-testid="notification-list">
            {list.isPending ? (
              <div className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted">
                <Spinner className="size-4" /> {t('loading')}
              </div>
            ) : list.isError ? (
              <p className="px-4 py-10 text-center text-sm text-muted">{t('failed')}</p>
            ) : items.length === 0 ? (
              <div className="px-6 py-10 text-center">
                <p className="text-sm font-medium">{t('empty.title')}</p>
                <p className="mt-1 text-sm text-muted">{t('empty.body')}</p>
              </div>
            ) : (
              <ul className="divide-y divide-line">
                {items.map((n) => (
                  <li key={n.id}>
                    <button
                      type="button"
                      onClick={() => openItem(n)}
                      className={cn(
                        'flex w-full gap-3 px-4 py-3 text-left hover:bg-canvas focus-visible:bg-canvas focus-visible:outline-none',
                        !n.readAt && 'bg-brand-50/60',
                      )}
                      data-testid="notification-item"
                    >
                      <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', n.readAt ? 'bg-transparent' : 'bg-brand-700')} />
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-medium">
                          {n.title}
                          {!n.readAt && <span className="sr-only"> {t('unreadMark')}</span>}
                        </span>
                        <span className="mt-0.5 block text-sm text-muted [overflow-wrap:anywhere]">{n.body}</span>
                        <span className="mt-1 block text-xs text-muted">
                          {topicLabel(n.topic)} · {formatDate(n.createdAt)}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="border-t border-line px-4 py-2.5 text-right">
            <Link to="/settings#notifications" onClick={() => setOpen(false)} className="text-sm font-medium text-brand-700 hover:underline">
              {t('emailSettings')}
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
