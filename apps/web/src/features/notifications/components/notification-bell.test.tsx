import { screen, waitFor, within } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import type { Notification } from '@portal/contract/notifications';
import { mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { NotificationBell } from './notification-bell.tsx';

const note = (id: number, overrides: Partial<Notification> = {}): Notification => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  topic: 'withdrawals',
  title: `Withdrawal of USD ${id}.00 requested`,
  body: `Tariq (treasury@acme.test) requested a withdrawal of USD ${id}.00.`,
  link: `/transactions?tab=3&id=s-${id}`,
  createdAt: '2026-11-26T10:00:00.000Z',
  readAt: null,
  ...overrides,
});

describe('the notification bell', () => {
  it('says how many are unread, lists them newest first, and opening one marks it read and goes to its screen', async () => {
    signIn('admin');
    let items = [
      note(2),
      note(1, { readAt: '2026-11-26T11:00:00.000Z', topic: 'low-balance', title: 'Your balance is below your low balance limit', link: '/balance' }),
    ];
    const api = mockApi({
      'GET notifications': () => ({ body: { items, unread: items.filter((n) => !n.readAt).length } }),
      'POST notifications/read': (call: ApiCall) => {
        const body = call.body as { ids?: string[]; all?: true };
        items = items.map((n) => (body.all || body.ids?.includes(n.id) ? { ...n, readAt: n.readAt ?? '2026-11-26T12:00:00.000Z' } : n));
        return { body: { updated: 1 } };
      },
    });
    const { user } = renderScreen(<NotificationBell />, { path: '/' });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const list = await screen.findByTestId('notification-list');
    const rows = within(list).getAllByTestId('notification-item');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining(
        'Withdrawal of USD 2.00 requested (unread)Tariq (treasury@acme.test) requested a withdrawal of USD 2.00.Withdrawals · Nov 26, 2026',
      ),
      expect.stringContaining('Your balance is below your low balance limit'),
    ]);
    expect(rows[1]!.textContent).not.toContain('(unread)');
    await user.click(rows[0]!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/transactions?tab=3&id=s-2'));
    expect(api.to('POST notifications/read').map((c) => c.body)).toEqual([{ ids: [note(2).id] }]);
  });

  it('marks all as read', async () => {
    signIn('treasury');
    let items = [note(3), note(4)];
    mockApi({
      'GET notifications': () => ({ body: { items, unread: items.filter((n) => !n.readAt).length } }),
      'POST notifications/read': () => {
        items = items.map((n) => ({ ...n, readAt: '2026-11-26T12:00:00.000Z' }));
        return { body: { updated: 2 } };
      },
    });
    const { user } = renderScreen(<NotificationBell />, { path: '/' });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Mark all as read' }).disabled).toBe(true);
  });

  it('is a plain button when the frame first draws, the popover right after; a click before then opens the list', async () => {
    signIn('admin');
    mockApi({ 'GET notifications': { body: { items: [note(5)], unread: 1 } } });
    // the bell as the screen's first commit has it (its layout effects): clicked at once, as an impatient user would
    let first: Element | null = null;
    function Probe() {
      useLayoutEffect(() => {
        first = document.querySelector('[data-testid="notification-bell"]');
        (first as HTMLButtonElement | null)?.click();
      }, []);
      return null;
    }
    renderScreen(
      <>
        <NotificationBell />
        <Probe />
      </>,
      { path: '/' },
    );
    expect(first).not.toBeNull();
    expect(first!.getAttribute('aria-haspopup')).toBe('dialog');
    // the early click was not lost: the list opened
    expect(await within(await screen.findByTestId('notification-list')).findAllByTestId('notification-item')).toHaveLength(1);
    // and the button now is the popover's own trigger, in its place
    const bell = screen.getByTestId('notification-bell');
    expect(bell).not.toBe(first);
    expect(bell.getAttribute('aria-expanded')).toBe('true');
  });

  it('says when there is nothing', async () => {
    signIn('admin');
    mockApi({ 'GET notifications': { body: { items: [], unread: 0 } } });
    const { user } = renderScreen(<NotificationBell />, { path: '/' });
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('You are all caught up')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Mark all as read' }).disabled).toBe(true);
  });
});
