import type { ComponentProps } from 'react';
import { Link, useNavigate } from 'react-router';
import { Popover } from 'radix-ui';
import type { Notification } from '@portal/contract/notifications';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { topicLabel } from '../../../lib/labels.ts';
import { useMarkRead, useNotifications } from '../api/notifications.ts';
import { notificationsMessages } from '../messages.ts';

/** The bell's button as the frame draws it (its look, name and badge): the popover's trigger takes it as it is. */
export type BellFace = ComponentProps<'button'> & { 'data-testid': string };

/**
 * The bell's list, in Radix's popover: the newest notifications, each opening its screen (and marked read), mark all
 * read, and the link to the e-mail choices on Settings. A chunk of its own (with the popover and its positioning),
 * loaded once the frame has started.
 */
export function NotificationPopover({ face, open, onOpenChange }: { face: BellFace; open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(notificationsMessages);
  const list = useNotifications(true);
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const unread = list.data?.unread ?? 0;
  const items = list.data?.items ?? [];

  const openItem = (n: Notification) => {
    if (!n.readAt) markRead.mutate({ ids: [n.id] });
    onOpenChange(false);
    void navigate(n.link);
  };

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
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
            <Link to="/settings#notifications" onClick={() => onOpenChange(false)} className="text-sm font-medium text-brand-700 hover:underline">
              {t('emailSettings')}
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
