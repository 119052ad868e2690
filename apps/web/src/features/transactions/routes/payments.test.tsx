import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InitiatedPaymentRow } from '@portal/contract/transaction-rows';
import type { SearchRequest } from '@portal/contract/transactions';
import { mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { profile, searchReply, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { PaymentsScreen } from './trades.tsx';

const row = (n: number): InitiatedPaymentRow => ({
  id: `0000000${n}-0000-4000-8000-000000000000`,
  createdAt: '2026-11-20T12:00:00.000Z',
  status: 'processing',
  country: 'KE',
  localCurrency: 'KES',
  amount: '12900.00',
  amountUsd: '100.00',
  paymentMethod: 'MOBILE_MONEY',
  recipientName: 'Amina Njeri',
  accountNumber: '0712345678',
  reference: `INV-00000${n}`,
  fiatWallet: null,
});
const ROWS = [row(1), row(2), row(3)];
function search(call: ApiCall) {
  const q = call.body as SearchRequest;
  const rows = q.idFilter ? ROWS.filter((r) => r.id === q.idFilter) : ROWS;
  return { body: searchReply(rows, rows.length, 'eq', 'initiate-payments') };
}
const renderPayments = (url: string) => renderScreen(<PaymentsScreen />, { path: '/payments/:id?', url });

describe('initiated payments', () => {
  it('/payments/{id} opens that payment, and closing its details goes back to /payments', async () => {
    signIn('view');
    const api = mockApi({ 'GET partner/profile': { body: profile({ productTypes: ['COMMERCIAL'], whitelisted: true }) }, 'POST transactions/search': search });
    const { user, router } = renderPayments(`/payments/${ROWS[1]!.id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Transaction details' });
    expect(drawer.querySelector('[data-field="ID"] dd')?.textContent).toBe(ROWS[1]!.id);
    expect(drawer.querySelector('[data-field="Reference"] dd')?.textContent).toBe('INV-000002');
    expect(api.to('POST transactions/search').some((c) => (c.body as SearchRequest).idFilter === ROWS[1]!.id)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/payments'));
    expect(screen.queryByRole('dialog')).toBeNull();
    // viewing a row puts its id in the address
    await user.click(await screen.findByRole('button', { name: `View ${ROWS[2]!.id}` }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/payments/${ROWS[2]!.id}`));
  });

  it('says when the id of the address is no payment of the partner', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() }, 'POST transactions/search': search });
    renderPayments('/payments/00000009-0000-4000-8000-000000000000');
    expect((await screen.findByText(/No payment with the ID/)).textContent).toBe('No payment with the ID 00000009-0000-4000-8000-000000000000.');
    renderPayments('/payments/not-an-id');
    await screen.findByText('No payment with the ID not-an-id.');
  });
});
