import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { profile, settlementWallet, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { WalletReviewBanners } from '../components/wallet-review-banners.tsx';
import { useReviewBanners } from '../review-banners.ts';
import { WalletsScreen } from './wallets.tsx';

const PENDING = settlementWallet({
  id: '5e770000-0000-4000-8000-000000000009',
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'ERC20',
  currencies: ['USDC', 'USDT'],
  status: 'pending_approval',
  canReview: true,
});
const toastText = () => useToasts.getState().toast.message;

describe('wallet management', () => {
  beforeEach(() => {
    signIn('admin');
    useReviewBanners.getState().reset();
  });

  it('lists one row per currency with status and creator, the memo only on Stellar, paged by 10', async () => {
    const many = Array.from({ length: 11 }, (_, i) =>
      settlementWallet({ id: `5e770000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`, address: `T${i}` }),
    );
    mockApi({
      'GET partner/wallets': {
        body: {
          wallets: [
            settlementWallet({
              id: '5e770000-0000-4000-8000-000000000002',
              network: 'XLM',
              address: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
              tag: '4242',
              currencies: ['USDC'],
            }),
            PENDING,
            ...many,
          ],
        },
      },
    });
    const { user } = renderScreen(<WalletsScreen />, { path: '/wallets' });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByTestId('wallet-row');
    expect(rows).toHaveLength(10);
    expect(rows[0]!.textContent).toContain('Memo 4242');
    // networks in words, not their codes
    expect(rows[0]!.textContent).toContain('Stellar');
    expect(rows[0]!.textContent).not.toContain('XLM');
    expect(rows[1]!.textContent).toContain('Ethereum');
    expect(rows[1]!.textContent).toContain('USDC');
    expect(rows[2]!.textContent).toContain('USDT');
    expect(rows[1]!.textContent).toContain('Pending approval');
    expect(rows[1]!.textContent).toContain('Kwame Boateng');
    expect(rows.slice(1).every((r) => !r.textContent.includes('Memo'))).toBe(true);
    expect(screen.getByTestId('wallets-page-summary').textContent).toBe('1–10 of 14');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(screen.getByRole('table')).getAllByTestId('wallet-row')).toHaveLength(4);
    expect(screen.getByTestId('wallets-page-summary').textContent).toBe('11–14 of 14');
  });

  it('adds a wallet: checks the address shape, sends the code, says where it went, then posts it with the code', async () => {
    const api = mockApi({
      'GET partner/wallets': { body: { wallets: [] } },
      'PUT user/otp': { body: { message: 'sent', sentTo: 'admin@acme.test', expiresInSeconds: 600 } },
      'POST partner/wallet': { status: 201, body: { wallet: settlementWallet({ status: 'pending_approval' }) } },
    });
    const { user } = renderScreen(<WalletsScreen />, { path: '/wallets' });
    await user.click(await screen.findByRole('button', { name: 'Add wallet address' }));
    await user.type(screen.getByLabelText('Wallet address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(WALLET_MESSAGES.invalidAddress)).toBeTruthy();
    expect(api.to('PUT user/otp')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Wallet address'));
    await user.type(screen.getByLabelText('Wallet address'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    await user.type(screen.getByLabelText('Full name of entity or beneficiary'), 'Acme Remit Ltd');
    await user.type(screen.getByLabelText('Business registration number'), 'RC-123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('code-sent-to')).textContent).toContain('admin@acme.test');
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Add wallet address' }));
    await waitFor(() => expect(api.to('POST partner/wallet')).toHaveLength(1));
    expect(api.to('POST partner/wallet')[0]!.body).toEqual({
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      network: 'TRC20',
      currencies: ['USDT'],
      tag: null,
      travelRuleInfo: { name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' },
      otp: '123456',
    });
    await waitFor(() => expect(toastText()).toMatch(/must now approve it/));
    // the code was asked for this address: the server checks it first and binds the code to it
    expect(api.to('PUT user/otp')[0]!.body).toEqual({
      action: 'wallet.add',
      target: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', network: 'TRC20', tag: null, currencies: ['USDT'] },
    });
  });

  it("shows the server's refusal of the address (a bad checksum) at the field, before any code step", async () => {
    const api = mockApi({
      'GET partner/wallets': { body: { wallets: [] } },
      'PUT user/otp': apiError(400, 'InvalidWalletAddress', WALLET_MESSAGES.invalidAddress),
    });
    const { user } = renderScreen(<WalletsScreen />, { path: '/wallets' });
    await user.click(await screen.findByRole('button', { name: 'Add wallet address' }));
    await user.type(screen.getByLabelText('Wallet address'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6A');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(WALLET_MESSAGES.invalidAddress)).toBeTruthy();
    expect(screen.getByLabelText('Wallet address').getAttribute('aria-invalid')).toBe('true');
    expect(api.to('PUT user/otp')).toHaveLength(1);
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(screen.queryByText(/could not generate otp/)).toBeNull();
  });

  it("shows the server's 'The code you entered is incorrect. Try again.' at the code and keeps the dialog open", async () => {
    mockApi({
      'GET partner/wallets': { body: { wallets: [] } },
      'PUT user/otp': { body: { message: 'sent', sentTo: 'admin@acme.test', expiresInSeconds: 600 } },
      'POST partner/wallet': apiError(400, 'InvalidOtp', 'The code you entered is incorrect. Try again.'),
    });
    const { user } = renderScreen(<WalletsScreen />, { path: '/wallets' });
    await user.click(await screen.findByRole('button', { name: 'Add wallet address' }));
    await user.type(screen.getByLabelText('Wallet address'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Verification code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Add wallet address' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code you entered is incorrect. Try again.');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('deletes with one of the four reasons and the code', async () => {
    const api = mockApi({
      'GET partner/wallets': { body: { wallets: [settlementWallet()] } },
      'PUT user/otp': { body: { message: 'sent', sentTo: 'admin@acme.test', expiresInSeconds: 600 } },
      [`DELETE partner/wallet/${settlementWallet().address}`]: { body: { wallet: settlementWallet({ status: 'deleted' }) } },
    });
    const { user } = renderScreen(<WalletsScreen />, { path: '/wallets' });
    await user.click(within(await screen.findByRole('table')).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getAllByRole('radio')).toHaveLength(4);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'This wallet was compromised' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Verification code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Delete wallet address' }));
    await waitFor(() => expect(api.to(`DELETE partner/wallet/${settlementWallet().address}`)).toHaveLength(1));
    expect(api.to(`DELETE partner/wallet/${settlementWallet().address}`)[0]!.body).toEqual({
      network: 'TRC20',
      reason: 'This wallet was compromised',
      otp: '654321',
    });
  });

  it('offers no changes to a view user', async () => {
    signIn('view');
    mockApi({ 'GET partner/wallets': { body: { wallets: [settlementWallet()] } } });
    renderScreen(<WalletsScreen />, { path: '/wallets' });
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'Add wallet address' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable' })).toBeNull();
  });
});

describe('wallet review banners and modal', () => {
  beforeEach(() => {
    signIn('treasury');
    useReviewBanners.getState().reset();
  });

  it('shows one banner per address the user may review; approving shows the toast of the spec', async () => {
    const other = settlementWallet({
      id: '5e770000-0000-4000-8000-00000000000a',
      address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      status: 'pending_approval',
      canReview: true,
    });
    const own = settlementWallet({ id: '5e770000-0000-4000-8000-00000000000b', address: 'TAnother', status: 'pending_approval', canReview: false });
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/wallets': { body: { wallets: [PENDING, other, own] } },
      'PUT partner/wallet/status': { body: { wallet: { ...PENDING, status: 'pending_screening', canReview: false } } },
    });
    const { user } = renderScreen(<WalletReviewBanners />);
    await waitFor(() => expect(screen.getAllByTestId('wallet-review-banner')).toHaveLength(2));
    await user.click(within(screen.getAllByTestId('wallet-review-banner')[0]!).getByRole('button', { name: 'Review' }));
    expect((await screen.findByTestId('review-address')).textContent).toBe(PENDING.address);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toastText()).toBe("New wallet address approved and is pending screening. You'll be notified once approved."));
    expect(api.to('PUT partner/wallet/status')[0]!.body).toEqual({ address: PENDING.address, network: 'ERC20', status: 'approved' });
  });

  it('denies with a reason: Submit stays disabled while it is empty, and free text wins over the chosen reason', async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/wallets': { body: { wallets: [PENDING] } },
      'PUT partner/wallet/status': { body: { wallet: { ...PENDING, status: 'denied' } } },
    });
    const { user } = renderScreen(<WalletReviewBanners />);
    await user.click(await screen.findByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' });
    expect(submit.disabled).toBe(true);
    expect(screen.getAllByRole('radio')).toHaveLength(4);
    await user.click(screen.getByRole('radio', { name: 'There is a mistake in this wallet address' }));
    expect(submit.disabled).toBe(false);
    await user.type(screen.getByLabelText('Other'), 'Not our treasury wallet');
    await user.click(submit);
    await waitFor(() => expect(toastText()).toBe('New wallet address denied'));
    expect(api.to('PUT partner/wallet/status')[0]!.body).toEqual({
      address: PENDING.address,
      network: 'ERC20',
      status: 'denied',
      reason: 'Not our treasury wallet',
    });
  });

  it('shows a failed review as a toast with the message, and keeps dismissed banners away', async () => {
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/wallets': { body: { wallets: [PENDING] } },
      'PUT partner/wallet/status': apiError(403, 'OwnWalletReview', WALLET_MESSAGES.ownReview),
    });
    const { user } = renderScreen(<WalletReviewBanners />);
    await user.click(await screen.findByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toastText()).toBe(`${WALLET_MESSAGES.statusFailed}${WALLET_MESSAGES.ownReview}`));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: `Dismiss the banner for ${PENDING.address}` }));
    expect(screen.queryByTestId('wallet-review-banner')).toBeNull();
    expect(useReviewBanners.getState().dismissed).toEqual([PENDING.address]);
  });

  it('shows no banner to a view user, nor to a commercial partner', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/wallets': { body: { wallets: [PENDING] } } });
    const { unmount } = renderScreen(<WalletReviewBanners />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('wallet-review-banner')).toBeNull();
    unmount();
    signIn('admin');
    mockApi({
      'GET partner/profile': { body: profile({ productTypes: ['COMMERCIAL'], isB2B: false, isCommercial: true }) },
      'GET partner/wallets': { body: { wallets: [PENDING] } },
    });
    renderScreen(<WalletReviewBanners />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('wallet-review-banner')).toBeNull();
  });
});
