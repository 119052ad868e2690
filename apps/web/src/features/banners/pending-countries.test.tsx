import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RATE_MESSAGES } from '@portal/contract/rates';
import { useToasts } from '../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../testing/api-mock.ts';
import { OTHER_ADMIN, USER_ID, accounts, partnerRate, profile, signIn } from '../../testing/factories.ts';
import { renderScreen } from '../../testing/render.tsx';
import { BannerArea } from './banner-area.tsx';

const AT = '2026-11-20T10:00:00.000Z';
const BENIN = partnerRate('BJ', 'XOF', { status: 'pending_enable', requestedBy: OTHER_ADMIN, requestedAt: AT });
const KENYA = partnerRate('KE', 'KES', { status: 'pending_disable', requestedBy: OTHER_ADMIN, requestedAt: AT });
const GHANA = partnerRate('GH', 'GHS', { status: 'enabled' });
const MINE = partnerRate('TG', 'XOF', { status: 'pending_enable', requestedBy: { id: USER_ID, name: 'Ada Admin' }, requestedAt: AT });

function setupApi(rates: ReturnType<typeof partnerRate>[], extra: Parameters<typeof mockApi>[0] = {}, flags = {}, partner = {}) {
  return mockApi({
    'GET partner/profile': { body: profile(partner, flags) },
    'GET partner/accounts': { body: accounts() },
    'GET partner/rates': { body: { rates } },
    ...extra,
  });
}
const renderBanners = () => renderScreen(<BannerArea onTopUp={() => undefined} />);
const banner = () => screen.findByTestId('pending-countries-banner');

describe('pending country change banner and review dialog', () => {
  it('shows admins of B2B partners the pending changes, and the review lists country and action', async () => {
    signIn('admin');
    setupApi([BENIN, GHANA, KENYA]);
    const { user } = renderBanners();
    expect((await banner()).textContent).toContain(
      '2 country changes are pending. Kwame Boateng asked to enable Benin and disable Kenya. It takes effect once another admin approves it.',
    );
    await user.click(screen.getByRole('button', { name: 'Review request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review country changes' });
    const items = within(dialog).getAllByTestId('pending-change');
    expect(items.map((i) => [within(i).getByText(/Benin|Kenya/).textContent, within(i).getByText(/^(Enable|Disable)$/).textContent])).toEqual([
      ['Benin · XOF', 'Enable'],
      ['Kenya · KES', 'Disable'],
    ]);
    expect(items[0]!.textContent).toContain('Requested by Kwame Boateng');
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  it("approves: each rate goes to its change's new status; 'Request approved'", async () => {
    signIn('admin');
    const api = setupApi([BENIN, GHANA, KENYA], { 'PUT partner/rates/review': { body: { isValid: true } } });
    const { user } = renderBanners();
    await user.click(await screen.findByRole('button', { name: 'Review request' }));
    api.on('GET partner/rates', {
      body: {
        rates: [
          { ...BENIN, status: 'enabled', requestedBy: null, requestedAt: null },
          GHANA,
          { ...KENYA, status: 'disabled', requestedBy: null, requestedAt: null },
        ],
      },
    });
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(RATE_MESSAGES.approved));
    expect(api.to('PUT partner/rates/review').map((c) => c.body)).toEqual([
      {
        rates: [
          { partnerRateId: BENIN.id, platformRateId: BENIN.rateId, status: 'enabled' },
          { partnerRateId: KENYA.id, platformRateId: KENYA.rateId, status: 'disabled' },
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByTestId('pending-countries-banner')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("denies: each rate goes back to its previous status; 'Request denied'", async () => {
    signIn('admin');
    const api = setupApi([BENIN, KENYA], { 'PUT partner/rates/review': { body: { isValid: true } } });
    const { user } = renderBanners();
    await user.click(await screen.findByRole('button', { name: 'Review request' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(RATE_MESSAGES.denied));
    expect(api.to('PUT partner/rates/review')[0]!.body).toEqual({
      rates: [
        { partnerRateId: BENIN.id, platformRateId: BENIN.rateId, status: 'disabled' },
        { partnerRateId: KENYA.id, platformRateId: KENYA.rateId, status: 'enabled' },
      ],
    });
  });

  it("says 'Error occured while approving changes' and why, and keeps the dialog open", async () => {
    signIn('admin');
    setupApi([BENIN], {
      'PUT partner/rates/review': apiError(409, 'Conflict', 'Benin (XOF) has no change waiting for review: it was reviewed or changed meanwhile.'),
    });
    const { user } = renderBanners();
    await user.click(await screen.findByRole('button', { name: 'Review request' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(
      await within(dialog).findByText(`${RATE_MESSAGES.reviewFailed}: Benin (XOF) has no change waiting for review: it was reviewed or changed meanwhile.`),
    ).toBeTruthy();
    expect(useToasts.getState().toast.message).toBe(RATE_MESSAGES.approveError);
  });

  it('does not offer the one who asked to approve; Deny withdraws the request', async () => {
    signIn('admin');
    const api = setupApi([MINE], { 'PUT partner/rates/review': { body: { isValid: true } } });
    const { user } = renderBanners();
    expect((await banner()).textContent).toContain("Your request to enable Togo is waiting for another admin's approval.");
    await user.click(screen.getByRole('button', { name: 'Review request' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Requested by you', { exact: false })).toBeTruthy();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Approve' }).disabled).toBe(true);
    expect(within(dialog).getByText(/another admin must approve them/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(api.to('PUT partner/rates/review')).toHaveLength(1));
    expect(api.to('PUT partner/rates/review')[0]!.body).toEqual({ rates: [{ partnerRateId: MINE.id, platformRateId: MINE.rateId, status: 'disabled' }] });
  });

  it('approves only what others asked for when the list mixes requests', async () => {
    signIn('admin');
    const api = setupApi([BENIN, MINE], { 'PUT partner/rates/review': { body: { isValid: true } } });
    const { user } = renderBanners();
    await user.click(await screen.findByRole('button', { name: 'Review request' }));
    expect((await banner()).textContent).toContain(
      'Kwame Boateng asked to enable Benin. It takes effect once another admin approves it. Your request to enable Togo waits for another admin.',
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/yours \(Togo\) wait for another admin/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.to('PUT partner/rates/review')).toHaveLength(1));
    expect(api.to('PUT partner/rates/review')[0]!.body).toEqual({ rates: [{ partnerRateId: BENIN.id, platformRateId: BENIN.rateId, status: 'enabled' }] });
  });

  it('shows nothing to non-admins, when nothing is pending, and asks nothing of partners without enabled countries', async () => {
    signIn('treasury');
    const treasury = setupApi([BENIN]);
    const first = renderBanners();
    await waitFor(() => expect(first.queryClient.getQueryData(['partner', 'profile'])).toBeDefined());
    expect(treasury.to('GET partner/rates')).toHaveLength(0);
    expect(screen.queryByTestId('pending-countries-banner')).toBeNull();
    first.unmount();

    signIn('admin');
    setupApi([GHANA]);
    const second = renderBanners();
    await waitFor(() => expect(second.queryClient.getQueryData(['partner', 'rates'])).toBeDefined());
    expect(screen.queryByTestId('pending-countries-banner')).toBeNull();
    second.unmount();

    for (const [flags, partner] of [
      [{ enabledCountriesEnabled: false }, {}],
      [{}, { isB2B: false, isCommercial: true, productTypes: ['COMMERCIAL'] }],
    ] as const) {
      signIn('admin');
      const api = setupApi([BENIN], {}, flags, partner);
      const view = renderBanners();
      await waitFor(() => expect(view.queryClient.getQueryData(['partner', 'profile'])).toBeDefined());
      expect(api.to('GET partner/rates')).toHaveLength(0);
      expect(screen.queryByTestId('pending-countries-banner')).toBeNull();
      view.unmount();
    }
  });
});
