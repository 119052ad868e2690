import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Payment } from '@portal/contract/payments';
import type { InitiatedPaymentRow } from '@portal/contract/transaction-rows';
import type { SearchRequest } from '@portal/contract/transactions';
import { apiError, mockApi, type ApiCall } from '../../../testing/api-mock.ts';
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
    const drawer = await screen.findByRole('dialog', { name: 'Transaction details' }, { timeout: 2500 });
    expect(drawer.querySelector('[data-field="ID"] dd')?.textContent).toBe(ROWS[1]!.id);
    expect(drawer.querySelector('[data-field="Reference"] dd')?.textContent).toBe('INV-000002');
    expect(api.to('POST transactions/search').some((c) => (c.body as SearchRequest).idFilter === ROWS[1]!.id)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/payments'));
    expect(screen.queryByRole('dialog')).toBeNull();
    // viewing a row puts its id in the address
    await user.click(await screen.findByRole('button', { name: `View details of ${ROWS[2]!.id}` }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/payments/${ROWS[2]!.id}`));
  });

  it("shows the order behind the row: fee, what left the balance, and the timeline of its states (a collection found after the disbursement call's 404)", async () => {
    signIn('view');
    const id = ROWS[0]!.id;
    const order: Payment = {
      id,
      kind: 'collection',
      status: 'failed',
      sequenceId: 'seq-1',
      country: 'KE',
      currency: 'KES',
      amount: '12900.00',
      rate: '129.00000000',
      amountUsd: '100.00',
      feeUsd: '0.23',
      totalUsd: '99.77',
      channelId: '00000000-0000-4000-8000-00000000000c',
      channelType: 'momo',
      paymentMethod: 'MOBILE_MONEY',
      networkId: null,
      networkName: null,
      accountNumber: '254722000111',
      accountType: 'phone',
      counterpartyName: 'Amina Njeri',
      reference: 'INV-000001',
      source: 'portal',
      instructions: null,
      failureReason: 'The payer did not approve the prompt',
      timeline: [
        { status: 'created', at: '2026-11-20T12:00:00.000Z' },
        { status: 'pending', at: '2026-11-20T12:00:04.000Z' },
        { status: 'failed', at: '2026-11-20T12:00:08.000Z' },
      ],
      createdAt: '2026-11-20T12:00:00.000Z',
      updatedAt: '2026-11-20T12:00:08.000Z',
    };
    const api = mockApi({
      'GET partner/profile': { body: profile({ productTypes: ['COMMERCIAL'], whitelisted: true }) },
      'POST transactions/search': search,
      [`GET disbursements/${id}`]: apiError(404, 'NotFound', 'Payment not found'),
      [`GET collections/${id}`]: { body: { payment: order } },
    });
    renderPayments(`/payments/${id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Transaction details' });
    await waitFor(() => expect(drawer.querySelector('[data-field="Failed"] dd')?.textContent).toBe('Nov 20, 2026, 12:00 UTC'));
    expect([...drawer.querySelectorAll('section')].at(-1)?.querySelectorAll('dt').length).toBe(3);
    expect([...drawer.querySelectorAll('section:last-of-type dt')].map((d) => d.textContent)).toEqual(['Created', 'Pending', 'Failed']);
    expect(drawer.querySelector('[data-field="Fee"] dd')?.textContent).toBe('USD 0.23');
    // a failed collection credited nothing: the drawer does not say it did
    expect(drawer.querySelector('[data-field="Credited to your balance"]')).toBeNull();
    expect(drawer.querySelector('[data-field="Your balance"] dd')?.textContent).toBe('Nothing was credited');
    expect(drawer.querySelector('[data-field="What happened"] dd')?.textContent).toBe('The payer did not pay. Nothing was credited.');
    expect(drawer.querySelector('[data-field="Reason"] dd')?.textContent).toBe('The payer did not approve the prompt');
    expect(api.to(`GET collections/${id}`)).toHaveLength(1);
  });

  it('shows no order section for a row with no order behind it (both calls 404), and no error', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile({ productTypes: ['COMMERCIAL'], whitelisted: true }) }, 'POST transactions/search': search });
    renderPayments(`/payments/${ROWS[2]!.id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Transaction details' });
    await waitFor(() => expect(drawer.textContent).not.toContain('Loading the payment'));
    expect(drawer.textContent).not.toContain('could not be loaded');
    expect(drawer.querySelector('[data-field="Fee"]')).toBeNull();
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
