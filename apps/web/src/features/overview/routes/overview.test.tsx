import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTCOME_STATUSES } from '@portal/contract/analytics';
import { dayInZone } from '@portal/contract/time-zone';
import { setDisplayTimeZone } from '../../../lib/format.ts';
import { mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { analyticsReply, fiatWallets, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { addDays } from '@portal/contract/analytics';
import { OverviewScreen } from './overview.tsx';

const SUCCEEDED = OUTCOME_STATUSES.succeeded.join(',');
const FAILED = OUTCOME_STATUSES.failed.join(',');

/** The query of each analytics call, as an object. */
const asked = (api: { to: (key: string) => ApiCall[] }) => api.to('GET partner/analytics').map((c) => Object.fromEntries(new URLSearchParams(c.query)));
/** A link's search parameters, as an object. */
const paramsOf = (link: HTMLElement) => Object.fromEntries(new URL(link.getAttribute('href')!, 'https://portal.test').searchParams);

function renderOverview(url = '/overview', partner = profile()) {
  const api = mockApi({
    'GET partner/profile': { body: partner },
    'GET partner/fiat-wallets': { body: fiatWallets() },
    'GET partner/analytics': { body: analyticsReply() },
  });
  return { api, ...renderScreen(<OverviewScreen />, { path: '/overview', url }) };
}

describe('the Overview', () => {
  afterEach(() => setDisplayTimeZone(null));

  it('asks for the last 30 days by default, then for the period and wallet chosen, each kept in the address', async () => {
    signIn('view');
    const { api, user, router } = renderOverview('/overview', profile({ fiatWalletsEnabled: true }));
    const today = dayInZone(Date.now(), 'UTC');
    await screen.findByTestId('volume-collections');
    expect(asked(api)).toEqual([{ from: addDays(today, -29), to: today, wallet: 'all', timeZone: 'UTC' }]);

    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(asked(api).at(-1)).toEqual({ from: addDays(today, -6), to: today, wallet: 'all', timeZone: 'UTC' }));
    expect(router.state.location.search).toBe('?period=7d');

    await user.click(screen.getByRole('radio', { name: 'Today' }));
    await waitFor(() => expect(asked(api).at(-1)).toMatchObject({ from: today, to: today }));

    // a calendar month: this one (up to today), or one of the months before
    await user.click(screen.getByRole('radio', { name: 'Month' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?period=month&month=${today.slice(0, 7)}`));
    await user.click(screen.getByRole('button', { name: /^Month: / }));
    const previous = addDays(`${today.slice(0, 7)}-01`, -1);
    const name = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${previous}T00:00:00Z`));
    await user.click(screen.getByRole('option', { name }));
    await waitFor(() => expect(asked(api).at(-1)).toMatchObject({ from: `${previous.slice(0, 7)}-01`, to: previous }));
    expect(new URLSearchParams(router.state.location.search).get('month')).toBe(previous.slice(0, 7));

    // the wallets the transaction tables offer
    await user.click(screen.getByRole('button', { name: 'Wallet: All wallets' }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All wallets', 'USD', 'NGN', 'KES']));
    await user.click(screen.getByRole('option', { name: 'NGN' }));
    await waitFor(() => expect(asked(api).at(-1)).toMatchObject({ wallet: 'NGN' }));
    expect(new URLSearchParams(router.state.location.search).get('wallet')).toBe('NGN');
  });

  it('reads its controls from the address, asks in the zone in force, and keeps them on a reload', async () => {
    signIn('admin');
    setDisplayTimeZone('Africa/Lagos');
    const { api } = renderOverview('/overview?period=custom&from=2026-03-05&to=2026-04-01&wallet=KES');
    await screen.findByTestId('volume-collections');
    expect(asked(api)).toEqual([{ from: '2026-03-05', to: '2026-04-01', wallet: 'KES', timeZone: 'Africa/Lagos' }]);
    expect(screen.getByLabelText<HTMLInputElement>('From (Africa/Lagos)').value).toBe('2026-03-05');
    expect(screen.getByLabelText<HTMLInputElement>('To (Africa/Lagos)').value).toBe('2026-04-01');
  });

  it("refuses a reversed or too long custom period with the contract's words, and sends nothing for it", async () => {
    signIn('admin');
    const { api, user } = renderOverview();
    await screen.findByTestId('volume-collections');
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const from = screen.getByLabelText<HTMLInputElement>('From (UTC)');
    const to = screen.getByLabelText<HTMLInputElement>('To (UTC)');
    // the custom period starts from the days on screen
    const today = dayInZone(Date.now(), 'UTC');
    expect([from.value, to.value]).toEqual([addDays(today, -29), today]);
    const calls = asked(api).length;
    // the end before the start
    fireEvent.change(to, { target: { value: addDays(today, -30) } });
    expect((await screen.findByRole('alert')).textContent).toBe('The end date must be on or after the start date.');
    fireEvent.change(to, { target: { value: '2026-03-01' } });
    expect(to.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(from, { target: { value: '2025-01-01' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Choose a period of at most 366 days.'));
    expect(screen.queryByTestId('overview-figures')).toBeNull();
    expect(asked(api)).toHaveLength(calls);
    fireEvent.change(from, { target: { value: '2026-02-01' } });
    await waitFor(() => expect(asked(api).at(-1)).toMatchObject({ from: '2026-02-01', to: '2026-03-01' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the figures with their currency, in words, the durations as people say them', async () => {
    signIn('view');
    renderOverview();
    const collections = await screen.findByTestId('volume-collections');
    expect(within(collections).getByTestId('volume-amount').textContent).toBe('USD 98,765.43');
    expect(within(collections).getByTestId('volume-count').textContent).toBe('1,234 succeeded');
    expect(within(collections).getByTestId('volume-change').textContent).toBe('Up 23.5%');
    expect(collections.textContent).toContain('against USD 80,000.00 before');
    expect(within(screen.getByTestId('volume-settlements')).getByTestId('volume-change').textContent).toBe('New this period');
    expect(screen.getByTestId('overview-summary').textContent).toBe('Nov 1 – 3, 2026, compared with Oct 29 – 31, 2026. Amounts in USD, days in UTC.');
    expect(screen.getByTestId('success-rate').textContent).toBe('92.1%');
    expect(screen.getByTestId('balance-current').textContent).toBe('USD 25,000.00');
    expect(screen.getByTestId('balance-pending-withdrawals').textContent).toBe('USD 1,200.50');
    // the channels with the tables' words, an operator without a name, a failure without a reason told by its status
    const channels = screen.getByTestId('by-channel');
    expect(
      within(channels)
        .getAllByTestId('breakdown-row')
        .map((r) => r.querySelector('td')!.textContent),
    ).toEqual(['Momo', 'Bank']);
    expect(within(screen.getByTestId('by-operator')).getByText('Not recorded')).toBeTruthy();
    expect(within(screen.getByTestId('failure-reasons')).getByText('Expired')).toBeTruthy();
    const rows = within(screen.getByTestId('completion')).getAllByTestId('completion-row');
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.lastChild!.textContent))).toEqual([
      ['Collections', 'Nigeria (NG) · Momo', '300', '4 min', '2 h 10 min'],
      ['Payments', 'Kenya (KE) · Bank', '20', '45 s', '1 d 3 h'],
    ]);
  });

  it('draws each chart as an image with a name and gives its figures as a table', async () => {
    signIn('view');
    const { user } = renderOverview();
    await screen.findByTestId('volume-collections');
    const chart = screen.getAllByRole('img', { name: /^Line chart of the amounts that succeeded per day/ });
    expect(chart).toHaveLength(1);
    expect(screen.getAllByRole('img', { name: /^Line chart/ })).toHaveLength(3);
    const volumes = screen.getByRole('table', { name: 'Volumes over time' });
    await user.click(screen.getAllByText('Show as table')[0]!);
    const rows = within(volumes).getAllByRole('row').slice(1);
    // each type's amount and count, one link
    const cell = (td: Element) => (td.querySelector('a') ? [...td.querySelector('a')!.children].map((c) => c.textContent).join(' · ') : td.textContent);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map(cell))).toEqual([
      ['Nov 1, 2026', 'USD 30,000.10 · 400 succeeded', 'USD 1,500.00 · 18 succeeded', 'USD 500.00 · 1 succeeded'],
      ['Nov 2, 2026', 'USD 30,001.10 · 401 succeeded', 'USD 1,501.00 · 19 succeeded', 'USD 500.00 · 1 succeeded'],
      ['Nov 3, 2026', 'USD 30,002.10 · 402 succeeded', 'USD 1,502.00 · 20 succeeded', 'USD 500.00 · 1 succeeded'],
    ]);
    // a step with nothing ended has no rate
    const rates = within(screen.getByRole('table', { name: 'Success rate over time' }))
      .getAllByRole('row')
      .slice(1);
    expect(rates.map((r) => r.querySelectorAll('td')[1]!.lastChild!.textContent)).toEqual(['90.0%', '90.0%', '–']);
  });

  it('opens the table behind each figure, with its tab, statuses, days, wallet, country or payment method', async () => {
    signIn('view');
    renderOverview('/overview?wallet=NGN', profile({ fiatWalletsEnabled: true }));
    const collections = await screen.findByTestId('volume-collections');
    const scope = { from: '2026-11-01', to: '2026-11-03', wallet: 'NGN' };
    expect(paramsOf(within(collections).getByTestId('volume-link'))).toEqual({ tab: '2', status: SUCCEEDED, ...scope });
    expect(paramsOf(within(screen.getByTestId('volume-payments')).getByTestId('volume-link'))).toMatchObject({ tab: '1', status: SUCCEEDED });
    expect(paramsOf(within(screen.getByTestId('volume-settlements')).getByTestId('volume-link'))).toMatchObject({ tab: '3', status: SUCCEEDED });
    // collections and payments together: the combined tab
    expect(paramsOf(screen.getByTestId('success-succeeded'))).toEqual({ tab: '5', status: SUCCEEDED, ...scope });
    expect(paramsOf(screen.getByTestId('success-failed'))).toEqual({ tab: '5', status: FAILED, ...scope });
    const nigeria = within(screen.getByTestId('by-country')).getAllByTestId('breakdown-row')[0]!;
    const [succeeded, failed, all] = within(nigeria).getAllByRole('link');
    expect(paramsOf(succeeded!)).toEqual({ tab: '5', status: SUCCEEDED, country: 'NG', ...scope });
    expect(paramsOf(failed!)).toEqual({ tab: '5', status: FAILED, country: 'NG', ...scope });
    expect(paramsOf(all!)).toEqual({ tab: '5', country: 'NG', ...scope });
    expect(all!.textContent).toBe('900');
    const momo = within(screen.getByTestId('by-channel')).getAllByTestId('breakdown-row')[0]!;
    expect(paramsOf(within(momo).getAllByRole('link')[0]!)).toEqual({ tab: '5', status: SUCCEEDED, paymentMethod: 'mobile_money', ...scope });
    // the tables have no operator filter: an operator's figures open nothing
    expect(within(screen.getByTestId('by-operator')).queryAllByRole('link')).toEqual([]);
    expect(within(screen.getByTestId('by-operator')).getByText(/no operator filter/)).toBeTruthy();
    // a step's figures open its day
    const step = within(screen.getByRole('table', { name: 'Volumes over time' })).getAllByRole('link')[3]!;
    expect(paramsOf(step)).toEqual({ tab: '2', status: SUCCEEDED, from: '2026-11-02', to: '2026-11-02', wallet: 'NGN' });
    // a corridor's completed ones: its type in the combined tab
    const corridor = within(screen.getByTestId('completion')).getAllByRole('link')[0]!;
    expect(paramsOf(corridor)).toEqual({ tab: '5', status: SUCCEEDED, country: 'NG', paymentMethod: 'mobile_money', transactionType: 'topup', ...scope });
  });

  it('shows the eight operators that weigh most until all are asked for, and how many are still under way', async () => {
    signIn('view');
    const operators = Array.from({ length: 11 }, (_, i) => ({ key: `Operator ${i + 1}`, count: 20 - i, amount: '0.00', succeeded: 1, finished: 2 }));
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/analytics': { body: analyticsReply({ success: { ...analyticsReply().success, byOperator: operators } }) },
    });
    const { user } = renderScreen(<OverviewScreen />, { path: '/overview' });
    const card = await screen.findByTestId('by-operator');
    expect(within(card).getAllByTestId('breakdown-row')).toHaveLength(8);
    await user.click(within(card).getByRole('button', { name: 'Show all 11 operators' }));
    expect(
      within(card)
        .getAllByTestId('breakdown-row')
        .map((r) => r.querySelector('td')!.textContent),
    ).toEqual(operators.map((o) => o.key));
    await user.click(within(card).getByRole('button', { name: 'Show fewer' }));
    expect(within(card).getAllByTestId('breakdown-row')).toHaveLength(8);
    // 1,400 rows in all, 1,400 ended
    expect(within(screen.getByTestId('success-overall')).getByText('0 still under way')).toBeTruthy();
  });

  it('says when the figures could not be loaded, and tries again', async () => {
    signIn('view');
    let fail = true;
    mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/analytics': () =>
        fail ? { status: 500, body: { code: 'InternalError', message: 'Something went wrong on our side.', requestId: 'r' } } : { body: analyticsReply() },
    });
    const { user } = renderScreen(<OverviewScreen />, { path: '/overview' });
    expect((await screen.findByText(/The figures could not be loaded/)).textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('volume-collections');
  });
});
