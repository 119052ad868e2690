import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Payment, PaymentQuote } from '@portal/contract/payments';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { channel, network, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { InitiatePaymentScreen } from './initiate-payment.tsx';
import { inFrench } from '../../../testing/french.ts';

const momoOut = channel({ channelType: 'momo', rampType: 'withdraw', min: '10.00000000', max: '250000.00000000' });
const momoIn = channel({ channelType: 'momo', rampType: 'deposit' });
const tzOut = channel({ channelType: 'momo', rampType: 'withdraw', country: 'TZ', currency: 'TZS' });
const mpesa = network({ name: 'M-Pesa', channelIds: [momoOut.id, momoIn.id] });
/** What the quote and the payment made from it both say: KES 1,000 paid out in Kenya, and its price in USD. */
const PRICED = {
  kind: 'disbursement',
  country: 'KE',
  currency: 'KES',
  amount: '1000.00',
  rate: '128.90000000',
  amountUsd: '7.75',
  feeUsd: '0.23',
  totalUsd: '7.98',
} as const;
const QUOTE: PaymentQuote = {
  ...PRICED,
  min: '10.00',
  max: '250000.00',
  balanceUsd: '5000.00',
};
const payment = (over: Partial<Payment> = {}): Payment => ({
  id: '7306c772-b1ba-455c-be36-fdf9529faaa0',
  ...PRICED,
  status: 'created',
  sequenceId: 'seq',
  channelId: momoOut.id,
  channelType: 'momo',
  paymentMethod: 'mobile_money',
  networkId: mpesa.id,
  networkName: 'M-Pesa',
  accountNumber: '+254712345678',
  accountType: 'phone',
  counterpartyName: 'Amina Juma',
  reference: 'PAY-7306C772',
  source: 'portal',
  instructions: null,
  failureReason: null,
  timeline: [{ status: 'created', at: '2026-11-23T10:00:00.000Z' }],
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...over,
});

function setupApi(role: 'admin' | 'view' = 'admin') {
  signIn(role);
  return mockApi({
    'GET partner/profile': { body: profile() },
    'GET channels': { body: { channels: [momoOut, momoIn, tzOut] } },
    'GET partner/payments/markets': { body: { markets: [{ country: 'KE', currency: 'KES' }] } },
    'GET networks': { body: { networks: [mpesa] } },
    'GET partner/payments/quote': { body: QUOTE },
    'POST partner/disbursement': { status: 201, body: { payment: payment() } },
    [`GET disbursements/${payment().id}`]: { body: { payment: payment() } },
  });
}

const renderInitiate = () => renderScreen(<InitiatePaymentScreen />, { path: '/payments/initiate' });

async function fillDisbursement(user: ReturnType<typeof renderScreen>['user']) {
  const form = await screen.findByRole('form', { name: 'Payment details' });
  await waitFor(() => expect(within(form).getByRole('option', { name: 'Kenya' })).toBeTruthy());
  await user.selectOptions(within(form).getByLabelText('Country'), 'KE');
  await user.selectOptions(within(form).getByLabelText('Channel'), momoOut.id);
  await user.selectOptions(within(form).getByLabelText('Network'), mpesa.id);
  await user.type(within(form).getByLabelText("Recipient's name"), 'Amina Juma');
  await user.type(within(form).getByLabelText('Phone number'), '+254712345678');
  await user.type(within(form).getByLabelText('Amount (KES)'), '1000');
  return form;
}

describe('initiate payment screen', () => {
  it('shows the quote before confirming, sends the confirmation with the sequenceId made with the quote, then the payment', async () => {
    const api = setupApi();
    const { user } = renderInitiate();
    const form = await fillDisbursement(user);
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    const quote = await screen.findByRole('region', { name: 'Quote' });
    for (const text of ['KES 1,000.00', '1 USD = 128.90 KES', 'USD 7.75', 'USD 0.23', 'USD 7.98', 'USD 5,000.00']) expect(quote.textContent).toContain(text);
    expect(api.to('GET partner/payments/quote')[0]!.query).toBe(`kind=disbursement&country=KE&channelId=${momoOut.id}&amount=1000`);
    expect(api.to('POST partner/disbursement')).toHaveLength(0);
    await user.click(within(quote).getByRole('button', { name: 'Confirm payout' }));
    expect(await screen.findByRole('heading', { name: 'Disbursement' })).toBeTruthy();
    const sent = api.to('POST partner/disbursement')[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      country: 'KE',
      channelId: momoOut.id,
      networkId: mpesa.id,
      accountNumber: '+254712345678',
      recipient: { name: 'Amina Juma' },
      amount: '1000',
    });
    expect(sent.sequenceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole('link', { name: 'View in payments' }).getAttribute('href')).toBe(`/payments/${payment().id}`);
  });

  it('sends the confirmation again with the same sequenceId when an outage took its answer, and shows the payment', async () => {
    const api = setupApi();
    let tries = 0;
    api.on('POST partner/disbursement', () =>
      ++tries === 1
        ? apiError(503, 'ServiceUnavailable', 'The service is briefly unavailable. Please try again in a few seconds.')
        : { status: 201, body: { payment: payment() } },
    );
    const { user } = renderInitiate();
    const form = await fillDisbursement(user);
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    const quote = await screen.findByRole('region', { name: 'Quote' });
    await user.click(within(quote).getByRole('button', { name: 'Confirm payout' }));
    expect(await screen.findByRole('heading', { name: 'Disbursement' }, { timeout: 5000 })).toBeTruthy();
    const sent = api.to('POST partner/disbursement').map((c) => (c.body as { sequenceId: string }).sequenceId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect(screen.queryByText(/briefly unavailable/)).toBeNull();
  });

  it("says what is missing, and shows the server's refusal", async () => {
    const api = setupApi();
    api.on('GET partner/payments/quote', apiError(403, 'CountryNotEnabled', 'This country is not enabled for your account'));
    const { user } = renderInitiate();
    const form = await screen.findByRole('form', { name: 'Payment details' });
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    for (const text of ['Choose a country', "Enter the recipient's name", 'Enter an amount in the local currency with at most 2 decimals'])
      expect(within(form).getAllByText(text).length).toBeGreaterThan(0);
    expect(api.to('GET partner/payments/quote')).toHaveLength(0);
    await fillDisbursement(user);
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('This country is not enabled for your account')).toBeTruthy();
  });

  it('at Review, says a negative amount is below the minimum and a bad account number under its field, asking for no quote', async () => {
    const api = setupApi();
    const { user } = renderInitiate();
    const form = await fillDisbursement(user);
    const amount = within(form).getByLabelText('Amount (KES)');
    await user.clear(amount);
    await user.type(amount, '-5');
    const phone = within(form).getByLabelText('Phone number');
    await user.clear(phone);
    await user.type(phone, '12ab');
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    expect(within(form).getByText('Enter an amount of at least KES 10.00')).toBeTruthy();
    const phoneError = within(form).getByText('Enter a phone number with its country code, digits only (7 to 15)');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(phone.closest('div')!.contains(phoneError)).toBe(true);
    expect(api.to('GET partner/payments/quote')).toHaveLength(0);
  });

  it('colours the status with the shared meaning: a payment under way is blue, a refunded one grey', async () => {
    const api = setupApi();
    api.on('POST partner/disbursement', { status: 201, body: { payment: payment({ status: 'processing' }) } });
    api.on(`GET disbursements/${payment().id}`, {
      body: {
        payment: payment({
          status: 'refunded',
          timeline: [
            { status: 'created', at: '2026-11-23T10:00:00.000Z' },
            { status: 'pending', at: '2026-11-23T10:00:01.000Z' },
            { status: 'refunded', at: '2026-11-23T10:00:02.000Z' },
          ],
        }),
      },
    });
    const { user } = renderInitiate();
    const form = await fillDisbursement(user);
    await user.click(within(form).getByRole('button', { name: 'Review' }));
    await user.click(within(await screen.findByRole('region', { name: 'Quote' })).getByRole('button', { name: 'Confirm payout' }));
    await waitFor(() => expect(screen.getByTestId('payment-status').textContent).toBe('Refunded'));
    expect(screen.getByTestId('payment-status').querySelector('[data-tone]')!.getAttribute('data-tone')).toBe('neutral');
    const tones = [...within(screen.getByRole('list', { name: 'Timeline' })).getAllByRole('listitem')].map((li) =>
      li.querySelector('[data-tone]')!.getAttribute('data-tone'),
    );
    expect(tones).toEqual(['info', 'info', 'neutral']);
  });

  it("offers only the partner's enabled countries: a channel's country it does not serve is not in the list", async () => {
    setupApi();
    renderInitiate();
    const form = await screen.findByRole('form', { name: 'Payment details' });
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Kenya' })).toBeTruthy());
    const offered = within(within(form).getByLabelText('Country'))
      .getAllByRole('option')
      .map((o) => (o as HTMLOptionElement).value);
    expect(offered).toEqual(['', 'KE']);
  });

  it('a view user reads but cannot initiate', async () => {
    setupApi('view');
    renderInitiate();
    expect(await screen.findByText('Only admin or treasury users can initiate payments.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Review' }).disabled).toBe(true);
  });
});

describe('initiate payment screen in French', () => {
  inFrench();

  it('writes the form, its checks, the quote and the payment made in French', async () => {
    setupApi();
    const { user } = renderInitiate();
    expect(screen.getByRole('heading', { name: 'Initier un paiement' })).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Détails du paiement' });
    expect(
      within(form)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual(['Décaisser', 'Encaisser']);
    await user.click(within(form).getByRole('button', { name: 'Vérifier' }));
    expect(
      within(form)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(expect.arrayContaining(['Choisissez un pays', 'Choisissez un canal', 'Saisissez le nom du bénéficiaire']));
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Kenya' })).toBeTruthy());
    await user.selectOptions(within(form).getByLabelText('Pays'), 'KE');
    expect(within(form).getByRole('option', { name: 'Mobile Money (10,00 – 250\u202f000,00 KES)' })).toBeTruthy();
    await user.selectOptions(within(form).getByLabelText('Canal'), momoOut.id);
    await user.selectOptions(within(form).getByLabelText('Réseau'), mpesa.id);
    await user.type(within(form).getByLabelText('Nom du bénéficiaire'), 'Amina Juma');
    await user.type(within(form).getByLabelText('Numéro de téléphone'), '+254712345678');
    await user.type(within(form).getByLabelText('Montant (KES)'), '1000');
    await user.click(within(form).getByRole('button', { name: 'Vérifier' }));
    const quote = await screen.findByRole('region', { name: 'Devis' });
    for (const text of ['Vous décaissez', '1\u202f000,00\u00a0KES', '1 USD = 128,90 KES', 'Débité de votre solde', `Solde\u00a0: 5\u202f000,00\u00a0USD`])
      expect(quote.textContent).toContain(text);
    await user.click(within(quote).getByRole('button', { name: 'Confirmer le décaissement' }));
    expect(await screen.findByRole('heading', { name: 'Décaissement' })).toBeTruthy();
    expect(screen.getByTestId('payment-status').textContent).toBe('Créé');
    expect(screen.getByRole('link', { name: 'Voir dans les paiements' })).toBeTruthy();
  });
});
