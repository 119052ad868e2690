import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@portal/contract/domain';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { setTestMode } from '../../../lib/test-mode.ts';
import { apiError, mockApi, type Reply } from '../../../testing/api-mock.ts';
import { accounts, balanceOverview, ledgerMovement, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { BalanceScreen } from '../routes/balance.tsx';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The server of the Balance screen: the test side's balance grows with each top-up the POST answers. */
function server(
  answer: (body: { amount: string; reference: string }) => Reply = (b) => ({ body: { currency: 'USD', amount: b.amount, added: true, balance: b.amount } }),
) {
  let balance = '0.00';
  return mockApi({
    'GET partner/profile': { body: profile() },
    'GET partner/accounts': () => ({ body: accounts([{ currency: 'USD', available: balance }]) }),
    'GET partner/balance': () => ({ body: balanceOverview(balance) }),
    'POST partner/test-funds': (call) => {
      const reply = answer(call.body as { amount: string; reference: string });
      if (!reply.status) balance = (reply.body as { balance: string }).balance;
      return reply;
    },
  });
}

async function openBalance(role: Role) {
  signIn(role);
  const view = renderScreen(<BalanceScreen />, { path: '/balance' });
  await screen.findByTestId('usd-available');
  return view;
}

describe('Add test funds on the Balance screen', () => {
  beforeEach(() => localStorage.clear());

  it('is there in the test view for admin and treasury, not for a view user, and never in the live view', async () => {
    server();
    setTestMode(true);
    for (const role of ['admin', 'treasury'] as const) {
      const view = await openBalance(role);
      expect(screen.getByRole('button', { name: 'Add test funds' })).toBeTruthy();
      // a withdrawal has no test side: it would take live money, so the test view does not offer it
      expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
      view.unmount();
    }
    const viewer = await openBalance('view');
    expect(screen.queryByRole('button', { name: 'Add test funds' })).toBeNull();
    viewer.unmount();

    setTestMode(false);
    await openBalance('treasury');
    expect(screen.queryByRole('button', { name: 'Add test funds' })).toBeNull();
    // the live view's top-up and withdrawal stay as they are
    expect(screen.getByRole('button', { name: 'Top up' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeTruthy();
  });

  it('posts the amount with a fresh reference, then closes, says what was added and shows the new balance', async () => {
    const api = server();
    setTestMode(true);
    const { user } = await openBalance('treasury');
    expect(screen.getByTestId('usd-available').textContent).toBe('USD 0.00');
    await user.click(screen.getByRole('button', { name: 'Add test funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add test funds' });
    const amount = within(dialog).getByLabelText('Amount (USD)');
    expect((amount as HTMLInputElement).value).toBe('1000');
    await user.click(within(dialog).getByRole('button', { name: 'Add test funds' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useToasts.getState().toast.message).toBe('Added USD 1,000.00 of test funds');
    const [post] = api.to('POST partner/test-funds');
    expect(post!.body).toEqual({ amount: '1000', reference: expect.stringMatching(UUID_V4) as string });
    expect(post!.headers['x-portal-mode']).toBe('test');
    // the balance and the accounts are read again
    await waitFor(() => expect(screen.getByTestId('usd-available').textContent).toBe('USD 1,000.00'));
    expect(api.to('GET partner/accounts').length).toBeGreaterThanOrEqual(2);
    expect(api.to('GET partner/balance').length).toBeGreaterThanOrEqual(2);

    // another top-up is one of its own: another reference
    await user.click(screen.getByRole('button', { name: 'Add test funds' }));
    const again = await screen.findByRole('dialog', { name: 'Add test funds' });
    await user.clear(within(again).getByLabelText('Amount (USD)'));
    await user.type(within(again).getByLabelText('Amount (USD)'), '250.50');
    await user.click(within(again).getByRole('button', { name: 'Add test funds' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Added USD 250.50 of test funds'));
    const [first, second] = api.to('POST partner/test-funds').map((c) => (c.body as { reference: string }).reference);
    expect(second).toMatch(UUID_V4);
    expect(second).not.toBe(first);
  });

  it("shows the server's word on the amount under the field, and keeps the dialog open", async () => {
    server(() => apiError(400, 'ValidationFailed', 'Amount: Enter at most 100000'));
    setTestMode(true);
    const { user } = await openBalance('admin');
    await user.click(screen.getByRole('button', { name: 'Add test funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add test funds' });
    await user.click(within(dialog).getByRole('button', { name: 'Add test funds' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Amount: Enter at most 100000');
    expect(within(dialog).getByLabelText('Amount (USD)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('usd-available').textContent).toBe('USD 0.00');
  });

  it('checks the amount as the server does before sending it', async () => {
    const api = server();
    setTestMode(true);
    const { user } = await openBalance('admin');
    await user.click(screen.getByRole('button', { name: 'Add test funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add test funds' });
    const amount = within(dialog).getByLabelText('Amount (USD)');
    for (const [typed, said] of [
      ['0', 'Enter an amount above zero'],
      ['12.345', 'Enter an amount such as 1000 or 1000.50'],
      ['100000.01', 'Enter at most 100000'],
    ] as const) {
      await user.clear(amount);
      await user.type(amount, typed);
      await user.click(within(dialog).getByRole('button', { name: 'Add test funds' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe(said);
    }
    expect(api.to('POST partner/test-funds')).toEqual([]);
  });

  it('lists test funds among the movements, in words, with no link: they are no transaction', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '2500.00' }]) },
      'GET partner/balance': {
        body: balanceOverview('2500.00', {
          recent: [
            ledgerMovement({ kind: 'test_funds', description: 'Test funds added', reference: 'f7e50000-0000-4000-8000-000000000001', amount: '2500.00' }),
          ],
        }),
      },
    });
    setTestMode(true);
    await openBalance('treasury');
    const list = screen.getByTestId('recent-movements');
    expect(within(list).getByText('Test funds added')).toBeTruthy();
    expect(within(list).getByText('+USD 2,500.00')).toBeTruthy();
    expect(within(list).queryByRole('link')).toBeNull();
  });
});
