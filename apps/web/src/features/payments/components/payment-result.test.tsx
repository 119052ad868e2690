import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Payment } from '@portal/contract/payments';
import { mockApi } from '../../../testing/api-mock.ts';
import { signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { PaymentResult } from './payment-result.tsx';

const collection = (over: Partial<Payment> = {}): Payment => ({
  id: '7306c772-b1ba-455c-be36-fdf9529faab1',
  kind: 'collection',
  status: 'pending',
  sequenceId: 'seq',
  country: 'NG',
  currency: 'NGN',
  amount: '25000.00',
  rate: '1550.00000000',
  amountUsd: '16.13',
  feeUsd: '0.02',
  totalUsd: '16.11',
  channelId: '00000000-0000-4000-8000-00000000000c',
  channelType: 'bank',
  paymentMethod: 'BANK_TRANSFER',
  networkId: null,
  networkName: null,
  accountNumber: '0123456789',
  accountType: 'bank',
  counterpartyName: 'Chidi Okafor',
  reference: 'PAY-7306C772',
  source: 'portal',
  instructions: {
    type: 'bank_transfer',
    bankName: 'Providus Bank',
    accountName: 'Acme Collections',
    accountNumber: '9900112233',
    reference: 'PAY-7306C772',
    amount: '25000.00',
    currency: 'NGN',
  },
  failureReason: null,
  timeline: [{ status: 'created', at: '2026-11-23T10:00:00.000Z' }],
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...over,
});

function show(created: Payment, live: Payment) {
  signIn('admin');
  mockApi({ [`GET ${created.kind}s/${created.id}`]: { body: { payment: live } } });
  renderScreen(<PaymentResult created={created} onAnother={() => {}} />);
}
const row = (label: string) => [...document.querySelectorAll('dt')].find((d) => d.textContent === label)?.nextElementSibling?.textContent;

describe('the payment result says what moved', () => {
  it('a collection awaiting payment: nothing credited yet, and the payer instructions', async () => {
    show(collection(), collection());
    expect(await screen.findByText('Instructions for the payer')).toBeTruthy();
    expect(row('Your balance')).toBe('Nothing credited yet');
    expect(row('Credited once the payer pays')).toBe('USD 16.11');
    expect(row('Credited to your balance')).toBeUndefined();
  });
  it('a failed collection: nothing was credited, and no instructions that can no longer be followed', async () => {
    show(collection(), collection({ status: 'failed', failureReason: 'The receiving network refused the payment' }));
    await waitFor(() => expect(screen.getByTestId('payment-status').textContent).toBe('Failed'));
    expect(screen.getByTestId('payment-outcome').textContent).toBe('The payer did not pay. Nothing was credited.');
    expect(row('Your balance')).toBe('Nothing was credited');
    expect(row('Credited to your balance')).toBeUndefined();
    expect(screen.queryByText('Instructions for the payer')).toBeNull();
    expect(screen.queryByText('9900112233')).toBeNull();
  });
  it('a failed disbursement: the reserved amount and fee returned to the balance, nothing sent', async () => {
    const d = collection({ kind: 'disbursement', status: 'processing', instructions: null, totalUsd: '16.15', amountUsd: '16.13' });
    show(d, { ...d, status: 'failed' });
    await waitFor(() => expect(screen.getByTestId('payment-status').textContent).toBe('Failed'));
    expect(row('Returned to your balance')).toBe('USD 16.15');
    expect(row('Paid to the recipient')).toBe('Nothing was sent');
    expect(row('Taken from your balance')).toBeUndefined();
  });
  it('a refunded collection: refunded to the payer in the local currency', async () => {
    show(collection({ status: 'complete', instructions: null }), collection({ status: 'refunded', instructions: null }));
    await waitFor(() => expect(screen.getByTestId('payment-status').textContent).toBe('Refunded'));
    expect(row('Refunded to the payer')).toBe('NGN 25,000.00');
    expect(row('Taken back from your balance')).toBe('USD 16.13');
  });
});
