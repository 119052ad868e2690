import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { WITHDRAWAL_MESSAGES } from '@portal/contract/settlements';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { accounts, balanceOverview, profile, settlementWallet, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { BalanceScreen } from '../routes/balance.tsx';

const TRAVEL_RULE = {
  configs: [
    { id: 't', countryCode: 'ALL', customerType: 'BUSINESS', minAmount: '1000.00', dataFields: ['name', 'businessRegistrationNumber'], status: 'ACTIVE' },
  ],
};
const fee = (amount: string) => ({
  feeAmount: '1.00000000',
  feeCurrency: 'USDT',
  rate: '1.0000',
  cryptoAmount: `${amount}000000`,
  receiveAmount: `${(Number(amount) - 1).toFixed(2)}000000`,
  maxAmount: '25000.00',
});
const settlement = (amount: string, sequenceId: string) => ({
  id: '5e770000-0000-4000-8000-0000000000ff',
  sequenceId,
  status: 'pending',
  type: 'payout',
  amount,
  cryptoCurrency: 'USDT',
  cryptoNetwork: 'TRC20',
  rate: '1.0000',
  feeAmount: '1.00000000',
  cryptoAmount: `${(Number(amount) - 1).toFixed(2)}000000`,
  walletAddress: settlementWallet().address,
  walletTag: null,
  createdAt: '2026-11-23T10:00:00.000Z',
});

function server(wallets = [settlementWallet()]) {
  return mockApi({
    'GET partner/profile': { body: profile() },
    'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '25000.00' }]) },
    'GET partner/balance': { body: balanceOverview('25000.00') },
    'GET partner/wallets': { body: { wallets } },
    'GET partner/travel-rule': { body: TRAVEL_RULE },
    'GET partner/settlement/fee': (call) => ({ body: fee(new URLSearchParams(call.query).get('amount')!) }),
    'POST partner/settlement/withdrawal': (call) => {
      const body = call.body as { amount: string; sequenceId: string };
      return { status: 201, body: { settlement: settlement(body.amount, body.sequenceId) } };
    },
  });
}

/** The balance screen, its balance loaded, with the withdraw dialog open. */
async function openWithdraw() {
  const rendered = renderScreen(<BalanceScreen />, { path: '/balance' });
  await screen.findByText('USD 25,000.00');
  await rendered.user.click(screen.getByRole('button', { name: 'Withdraw' }));
  return rendered;
}

/** The withdraw dialog with `amount` typed and Continue pressed. */
async function continueWith(amount: string) {
  const rendered = await openWithdraw();
  await rendered.user.type(screen.getByLabelText('Amount (USD)'), amount);
  await rendered.user.click(screen.getByRole('button', { name: 'Continue' }));
  return rendered;
}

describe('withdrawal', () => {
  beforeEach(() => signIn('treasury'));

  it('takes an amount up to the max settlement, confirms rate, fee and what arrives, then shows the pending acknowledgement', async () => {
    const api = server();
    const { user } = await openWithdraw();
    expect(screen.getByTestId('max-settlement').textContent).toBe('You can withdraw at most USD 25,000.00');
    // said as soon as the amount typed is above the maximum, before Continue; gone when it is not
    await user.type(screen.getByLabelText('Amount (USD)'), '25000.0');
    expect(screen.queryByText('You can withdraw at most USD 25,000.00', { selector: '[role=alert], p, span:not([data-testid])' })).toBeNull();
    await user.type(screen.getByLabelText('Amount (USD)'), '1');
    expect(screen.getByText('You can withdraw at most USD 25,000.00', { selector: '[role=alert], p, span:not([data-testid])' })).toBeTruthy();
    await user.type(screen.getByLabelText('Amount (USD)'), '{Backspace}');
    expect(screen.queryByText('You can withdraw at most USD 25,000.00', { selector: '[role=alert], p, span:not([data-testid])' })).toBeNull();
    await user.type(screen.getByLabelText('Amount (USD)'), '1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('You can withdraw at most USD 25,000.00', { selector: '[role=alert], p, span:not([data-testid])' })).toBeTruthy();
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '250.00');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('confirm-rate')).textContent).toBe('1 USDT = USD 1.00');
    expect(screen.getByTestId('confirm-fee').textContent).toBe('USDT 1.00');
    expect(screen.getByTestId('confirm-receive').textContent).toBe('USDT 249.00');
    expect(screen.getByTestId('irreversible-warning').textContent).toBe(WITHDRAWAL_MESSAGES.irreversible);
    // below the travel-rule minimum: no recipient fields
    expect(screen.queryByLabelText('Business registration number')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    expect((await screen.findByTestId('withdrawal-pending')).textContent).toBe('USDT 249.00 on its way');
    expect(screen.getByText(/Processing takes 5 to 20 minutes/)).toBeTruthy();
    const sent = api.to('POST partner/settlement/withdrawal')[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      amount: '250.00',
      source: 'dashboard',
      walletAddress: settlementWallet().address,
      cryptoCurrency: 'USDT',
      cryptoNetwork: 'TRC20',
      fiatWallet: 'USD',
      receivingWallet: settlementWallet().id,
      travelRuleInfo: null,
    });
    expect(sent.sequenceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('asks for the travel-rule recipient from the minimum on, prefilled from the wallet, and through an outage sends it again by itself with the same sequenceId', async () => {
    const api = server();
    let first = true;
    api.on('POST partner/settlement/withdrawal', (call) => {
      if (first) {
        first = false;
        return apiError(503, 'ServiceUnavailable', 'The database is not reachable. Try again shortly.');
      }
      const body = call.body as { amount: string; sequenceId: string };
      return { status: 201, body: { settlement: settlement(body.amount, body.sequenceId) } };
    });
    const { user } = await continueWith('1500');
    expect((await screen.findByLabelText<HTMLInputElement>('Full name of entity or beneficiary')).value).toBe('Acme Remit Ltd');
    expect(screen.getByLabelText<HTMLInputElement>('Business registration number').value).toBe('RC-123456');
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    // the server away: the dialog says the request will go again, and cannot be made twice
    expect((await screen.findByText(/Your withdrawal will be sent again, with the same reference/)).textContent).toContain('it cannot be made twice');
    await screen.findByTestId('withdrawal-pending', {}, { timeout: 4000 });
    const [a, b, more] = api.to('POST partner/settlement/withdrawal').map((c) => c.body as { sequenceId: string; travelRuleInfo: unknown });
    expect(more).toBeUndefined();
    expect(a!.sequenceId).toBe(b!.sequenceId);
    expect(b!.travelRuleInfo).toEqual({ name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' });
  });

  it('a refused withdrawal is the answer: not sent again', async () => {
    const api = server();
    api.on('POST partner/settlement/withdrawal', apiError(409, 'SequenceIdReused', 'The balance is too low for this withdrawal.'));
    const { user } = await continueWith('250');
    await screen.findByTestId('confirm-rate');
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    expect((await screen.findByRole('alert')).textContent).toBe('could not process settlement: The balance is too low for this withdrawal.');
    expect(api.to('POST partner/settlement/withdrawal')).toHaveLength(1);
  });

  it("says 'Cannot withdraw funds without setting a wallet address' when no wallet is enabled", async () => {
    server([settlementWallet({ status: 'pending_approval' })]);
    await openWithdraw();
    expect((await screen.findByTestId('no-wallet')).textContent).toBe('Cannot withdraw funds without setting a wallet address');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled).toBe(true);
  });

  it('offers no withdrawal to a view user', async () => {
    signIn('view');
    server();
    renderScreen(<BalanceScreen />, { path: '/balance' });
    await screen.findByText('USD 25,000.00');
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Top up' })).toBeTruthy());
  });

  it('reads the balance again when the dialog opens, and shows the new maximum', async () => {
    const api = server();
    const { user } = renderScreen(<BalanceScreen />, { path: '/balance' });
    await screen.findByText('USD 25,000.00');
    api.on('GET partner/accounts', { body: accounts([{ currency: 'USD', available: '1234.56' }]) });
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(screen.getByTestId('max-settlement').textContent).toBe('You can withdraw at most USD 1,234.56'));
    expect(api.to('GET partner/accounts')).toHaveLength(2);
  });

  it('when the server answers InsufficientBalance, goes back to the amount with the new maximum in the hint and the error', async () => {
    const api = server();
    api.on('POST partner/settlement/withdrawal', apiError(400, 'InsufficientBalance', 'You can withdraw at most USD 100.00'));
    const { user } = await continueWith('250');
    await screen.findByTestId('confirm-rate');
    api.on('GET partner/accounts', { body: accounts([{ currency: 'USD', available: '100.00' }]) });
    await user.click(screen.getByRole('button', { name: 'Confirm withdrawal' }));
    // the amount's error says the new maximum (in place of the hint, which says the same), and the screen's balance moved too
    expect((await screen.findByText('You can withdraw at most USD 100.00')).closest('[data-testid=usd-available]')).toBeNull();
    expect(screen.getByTestId('usd-available').textContent).toBe('USD 100.00');
    expect(screen.getByLabelText<HTMLInputElement>('Amount (USD)').value).toBe('250');
  });

  it('gives a treasury user a link to the wallets page (no menu name they do not have), and without the feature tells them to ask an admin', async () => {
    server([]);
    const { unmount } = await openWithdraw();
    await screen.findByTestId('no-wallet');
    expect(screen.getByRole('link', { name: 'Add a wallet address' }).getAttribute('href')).toBe('/wallets');
    expect(screen.queryByText(/Wallet Management/)).toBeNull();
    unmount();

    const api = server([]);
    api.on('GET partner/profile', { body: profile({}, { walletManagementEnabled: false }) });
    await openWithdraw();
    await screen.findByTestId('no-wallet');
    expect(screen.getByText('Ask an admin of your team to add a wallet address.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add a wallet address' })).toBeNull();
  });
});
