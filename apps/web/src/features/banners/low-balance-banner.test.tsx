import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../testing/api-mock.ts';
import { accounts, profile, signIn } from '../../testing/factories.ts';
import { renderScreen } from '../../testing/render.tsx';
import { BannerArea } from './banner-area.tsx';
import { useBanners } from './low-balance.ts';
import { setTestMode } from '../../lib/test-mode.ts';

const B2B = { productTypes: ['B2B'], isB2B: true, isCommercial: false, isWhitelistedCommercial: false } as const;
const WHITELISTED = { productTypes: ['COMMERCIAL'], isB2B: false, isCommercial: true, isWhitelistedCommercial: true } as const;
const NOT_WHITELISTED = { productTypes: ['COMMERCIAL'], isB2B: false, isCommercial: true, isWhitelistedCommercial: false } as const;

function setup(partner: object, usd = '400.00') {
  signIn('admin');
  mockApi({
    'GET partner/profile': { body: profile({ lowBalanceLimit: null, ...partner }) },
    'GET partner/accounts': { body: accounts([{ currency: 'USD', available: usd }]) },
    'GET partner/rates': { body: { rates: [] } },
  });
  const onTopUp = vi.fn();
  return { onTopUp, ...renderScreen(<BannerArea onTopUp={onTopUp} />) };
}

describe('low-balance banner', () => {
  beforeEach(() => useBanners.getState().reset());

  it.each([
    ['a B2B partner', B2B],
    ['a whitelisted commercial partner', WHITELISTED],
  ])('tells %s its balance and limit, and its Top up balance opens the top-up dialog', async (_, partner) => {
    const { user, onTopUp } = setup(partner);
    const banner = await screen.findByTestId('low-balance-banner');
    expect(banner.textContent).toContain('Your available balance is USD 400.00, below your limit of USD 1,000.00.');
    await user.click(screen.getByRole('button', { name: 'Top up balance' }));
    expect(onTopUp).toHaveBeenCalledTimes(1);
    // the dialog is told why it opened, with the limit
    expect(onTopUp).toHaveBeenCalledWith('Your available balance is USD 400.00, below your low-balance limit of USD 1,000.00.');
    // a button that opens the dialog, not a link away from the page
    expect(screen.queryByRole('link', { name: 'Top up balance' })).toBeNull();
  });

  it('says the limit the partner set', async () => {
    setup({ ...B2B, lowBalanceLimit: '2500.50000000' }, '2500.49');
    expect((await screen.findByTestId('low-balance-banner')).textContent).toContain('below your limit of USD 2,500.50');
  });

  it('is not shown to a commercial partner that is not whitelisted, which has no balance screen', async () => {
    const { queryClient } = setup(NOT_WHITELISTED, '0.00');
    await vi.waitFor(() => expect(queryClient.getQueryData(['partner', 'accounts'])).toBeTruthy());
    await vi.waitFor(() => expect(queryClient.getQueryData(['partner', 'profile'])).toBeTruthy());
    expect(screen.queryByTestId('low-balance-banner')).toBeNull();
  });

  it('is not shown in the test view, whose balance is test money', async () => {
    setTestMode(true);
    const { queryClient } = setup(B2B, '0.00');
    await vi.waitFor(() => expect(queryClient.getQueryData(['partner', 'accounts'])).toBeTruthy());
    await vi.waitFor(() => expect(queryClient.getQueryData(['partner', 'profile'])).toBeTruthy());
    expect(screen.queryByTestId('low-balance-banner')).toBeNull();
  });

  it('is not shown at or above the limit', async () => {
    const { queryClient } = setup(B2B, '1000.00');
    await vi.waitFor(() => expect(queryClient.getQueryData(['partner', 'accounts'])).toBeTruthy());
    expect(screen.queryByTestId('low-balance-banner')).toBeNull();
  });
});
