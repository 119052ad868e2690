import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { statusList } from '@portal/contract/status-groups';
import { idSearchMessage, type SearchRequest } from '@portal/contract/transactions';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { formatDate } from '../../../lib/format.ts';
import { apiError, mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { accounts, fiatWallets, payments, profile, searchReply, settlement, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TransactionsScreen } from './transactions.tsx';

/** 25 payments; the five with an odd number failed. The server's filtering and paging, as the mock answers them. */
const ALL = payments(25).map((r, i) => (i % 5 === 1 ? { ...r, status: 'failed' } : r));
function search(call: ApiCall) {
  const q = call.body as SearchRequest;
  const rows = ALL.filter((r) => !q.filters.status || statusList(q.filters.status).includes(r.status)).filter(
    (r) => !q.idFilter || String(r.id).startsWith(q.idFilter),
  );
  return { body: searchReply(rows.slice(q.startIndex, q.startIndex + q.size), rows.length) };
}

const base = { 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } };
const renderTransactions = (url = '/transactions') => renderScreen(<TransactionsScreen />, { path: '/transactions', url });
const bodyRows = () => screen.getAllByRole('row').slice(1);
/** A cell's text without the column name a phone's card shows above it. */
const cellText = (cell: HTMLElement) => {
  const copy = cell.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[data-cell-label]').forEach((l) => l.remove());
  return copy.textContent;
};
const column = (n: number) => bodyRows().map((r) => cellText(within(r).getAllByRole('cell')[n]!));
const summary = () => screen.getByTestId('page-summary').textContent;
/** The summary moves with the click while the page loads (the previous rows stay): wait for the rows too. */
const pageShown = (text: string) =>
  waitFor(() => {
    expect(summary()).toBe(text);
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
  });
const searches = (api: ReturnType<typeof mockApi>) => api.to('POST transactions/search').map((c) => c.body as SearchRequest);

describe('transactions screen', () => {
  beforeEach(() => signIn('view'));

  it('shows the first page of payments, newest first, with the columns of the spec and the total', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    renderTransactions();
    await pageShown('1–10 of 25');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'Date', 'Country', 'Amount', 'Status', 'Payment Method', 'View']);
    expect(bodyRows()).toHaveLength(10);
    // the amount with both sides of the conversion, each with its currency; the date in UTC with the zone written
    expect(within(bodyRows()[0]!).getAllByRole('cell').map(cellText).slice(0, 6)).toEqual([
      '00000000…',
      'Nov 20, 2026 12:00 UTC',
      'NG',
      'NGN 1,000.50USD 0.65 · 1 USD = 1,550.00 NGN',
      'Complete',
      'Bank',
    ]);
    expect(formatDate(ALL[0]!.createdAt)).toBe('Nov 20, 2026, 12:00 UTC');
    expect(column(4)[1]).toBe('Failed');
    expect(searches(api)).toEqual([{ table: 'payments', filters: {}, idFilter: '', range: {}, fiatWallet: 'all', startIndex: 0, size: 10 }]);
    expect(screen.getByRole('button', { name: 'Previous' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('pages by 10 and stops at the last page', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    const next = screen.getByRole('button', { name: 'Next' });
    await user.click(next);
    await pageShown('11–20 of 25');
    expect(column(0)[0]).toBe('00000010…');
    // the focus stays on the pager (a disabled button would drop it to the page)
    expect(document.activeElement).toBe(next);
    await user.click(next);
    await pageShown('21–25 of 25');
    expect(bodyRows()).toHaveLength(5);
    expect(next.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(next);
    await user.click(next);
    expect(summary()).toBe('21–25 of 25');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await pageShown('11–20 of 25');
    expect(searches(api).map((b) => b.startIndex)).toEqual([0, 10, 20]);
    // Next carries the keyset hint of the last row shown (the page before was cached: Previous asked nothing)
    expect(searches(api).map((b) => b.anchor)).toEqual([
      undefined,
      { index: 9, createdAt: ALL[9]!.createdAt, id: ALL[9]!.id },
      { index: 19, createdAt: ALL[19]!.createdAt, id: ALL[19]!.id },
    ]);
  });

  it('moves to the next page while the rows shown refresh in the background (a live change, an outage)', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const api = mockApi({
      ...base,
      'POST transactions/search': async (call) => {
        // the first page's refresh (its second ask) waits, as one does through an outage
        if ((call.body as SearchRequest).startIndex === 0 && ++calls === 2) await new Promise<void>((r) => (release = r));
        return search(call);
      },
    });
    const { user, queryClient } = renderTransactions();
    await pageShown('1–10 of 25');
    void queryClient.invalidateQueries({ queryKey: ['transactions'] });
    await waitFor(() => expect(calls).toBe(2));
    // the refresh shows (the table says it is fetching) and goes on
    await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).not.toBeNull());
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next.getAttribute('aria-disabled')).toBe('false');
    await user.click(next);
    await pageShown('11–20 of 25');
    expect(searches(api).map((b) => b.startIndex)).toEqual([0, 0, 10]);
    release();
  });

  it('filters by status from the first page, and resets the filter', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown('11–20 of 25');
    await user.click(screen.getByRole('button', { name: 'Status: All' }));
    await user.click(screen.getByRole('checkbox', { name: 'Failed' }));
    await pageShown('1–5 of 5');
    expect([...new Set(column(4))]).toEqual(['Failed']);
    expect(searches(api).at(-1)).toMatchObject({ filters: { status: 'failed' }, startIndex: 0 });
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await pageShown('1–10 of 25');
    expect(searches(api).at(-1)).toMatchObject({ filters: {}, startIndex: 0 });
  });

  it('offers every transaction status of the contract in the status filter', async () => {
    mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    await user.click(screen.getByRole('button', { name: 'Status: All' }));
    const boxes = screen.getAllByRole('checkbox').map((o) => o.closest('label')!.textContent);
    // six groups, each status once under its group
    expect(boxes).toHaveLength(24 + 6);
    expect(boxes).toContain('Pending KYC');
    expect(boxes).toContain('Settlement Failed');
    expect(screen.getAllByRole('group').map((g) => g.querySelector('legend')!.textContent)).toEqual([
      'Open',
      'In progress',
      'Succeeded',
      'Failed',
      'Refunded',
      'Cancelled or expired',
    ]);
    expect(
      within(screen.getAllByRole('group')[3]!)
        .getAllByRole('checkbox')
        .map((o) => o.closest('label')!.textContent),
    ).toEqual(['Failed(4)', 'Failed', 'Denied', 'Refund Failed', 'Settlement Failed']);
  });

  it('selects a whole group, or one status of it, and keeps the selection in the address', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user, router } = renderTransactions();
    await pageShown('1–10 of 25');
    await user.click(screen.getByRole('button', { name: 'Status: All' }));
    await user.click(screen.getByRole('checkbox', { name: 'Failed (4)' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('status')).toBe('failed,denied,refund_failed,settlement_failed'));
    expect(searches(api).at(-1)).toMatchObject({ filters: { status: 'failed,denied,refund_failed,settlement_failed' }, startIndex: 0 });
    await pageShown('1–5 of 5');
    expect(screen.getByRole('button', { name: 'Status: Failed' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Refund Failed' }).checked).toBe(true);
    // one status off: the group shows mixed
    await user.click(screen.getByRole('checkbox', { name: 'Denied' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('status')).toBe('failed,refund_failed,settlement_failed'));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Failed (4)' }).indeterminate).toBe(true);
    expect(screen.getByRole('button', { name: 'Status: 3 statuses' })).toBeTruthy();
  });

  it('starts from a selection of several statuses in the address, and from an old single-status link', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    renderTransactions('/transactions?status=failed,Complete');
    await waitFor(() => expect(searches(api)[0]).toMatchObject({ filters: { status: 'failed,complete' } }));
    expect(screen.getByRole('button', { name: 'Status: 2 statuses' })).toBeTruthy();
  });

  it('says there is nothing yet when the partner has no payments', async () => {
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([], 0) } });
    renderTransactions();
    expect((await screen.findByTestId('empty-noData')).textContent).toContain('No transactions yet');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(true);
  });

  it('tells a search by id that found nothing apart from a filter that found nothing', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    await user.type(screen.getByLabelText('Search by ID'), ' ffff ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByTestId('empty-noDataForId')).textContent).toContain('No transaction with this ID');
    expect(searches(api).at(-1)).toMatchObject({ idFilter: 'ffff', startIndex: 0 });
    api.on('POST transactions/search', { body: searchReply([], 0) });
    await user.clear(screen.getByLabelText('Search by ID'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(screen.getByRole('button', { name: 'Status: All' }));
    await user.click(screen.getByRole('checkbox', { name: 'Refunded' }));
    expect(await screen.findByTestId('empty-noDataForFilter')).toBeTruthy();
  });

  it("shows the table's own message inside the table when the search fails, and Retry loads the rows", async () => {
    const api = mockApi({ ...base, 'POST transactions/search': apiError(500, 'InternalError', 'boom') });
    const { user } = renderTransactions();
    const error = await screen.findByTestId('table-error');
    expect(error.textContent).toContain('Could not retrieve payment records');
    expect(useToasts.getState().toast.message).toBe('');
    api.on('POST transactions/search', search);
    await user.click(within(error).getByRole('button', { name: 'Retry' }));
    await pageShown('1–10 of 25');
    expect(screen.queryByTestId('table-error')).toBeNull();
  });

  it('shows no rows for the id of a link that cannot be an id (?id=), says why, and turns Export off', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    renderTransactions('/transactions?id=hello%20world!');
    const empty = await screen.findByTestId('empty-invalidFilter');
    expect(empty.textContent).toContain(idSearchMessage('payments'));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByTestId('table-error')).toBeNull();
    const exportButton = screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' });
    expect(exportButton.disabled).toBe(true);
    expect(document.getElementById(exportButton.getAttribute('aria-describedby')!)!.textContent).toContain(idSearchMessage('payments'));
    expect(searches(api)).toEqual([]);
  });

  it('says where an id is when this tab has none: Found in Collections, with a link to that tab and the same id', async () => {
    const api = mockApi({
      ...base,
      'POST transactions/search': { body: searchReply([], 0) },
      'POST transactions/locate': { body: { found: ['collections'] } },
    });
    renderTransactions('/transactions?id=3f2a9c1e');
    const empty = await screen.findByTestId('empty-noDataForId');
    await waitFor(() => expect(empty.textContent).toContain('Found in Collections'));
    expect(api.to('POST transactions/locate').map((c) => c.body)).toEqual([{ id: '3f2a9c1e' }]);
    expect(within(empty).getByRole('link', { name: 'Open in Collections' }).getAttribute('href')).toBe('/transactions?tab=2&id=3f2a9c1e');
  });

  it('keeps "No transaction with this ID" when the id is in no other table', async () => {
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([], 0) }, 'POST transactions/locate': { body: { found: ['payments'] } } });
    renderTransactions('/transactions?id=3f2a9c1e');
    const empty = await screen.findByTestId('empty-noDataForId');
    await waitFor(() => expect(empty.textContent).toContain('No transaction with this ID'));
    expect(within(empty).queryByRole('link')).toBeNull();
  });

  it('keeps the last good rows under the error when the next page fails', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    api.on('POST transactions/search', apiError(500, 'InternalError', 'down'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByTestId('table-error');
    // the rows and the pager draw in a render of their own, right after the error's
    await waitFor(() => expect(summary()).toBe('1–10 of 25'));
    expect(bodyRows()).toHaveLength(10);
    expect(column(0)[0]).toBe('00000000…');
    api.on('POST transactions/search', search);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await pageShown('11–20 of 25');
    expect(column(0)[0]).toBe('00000010…');
  });

  it('opens grouped, formatted details of a row in a drawer, without the partner id, and gives the focus back on close', async () => {
    // a reply that carries a partner id anyway: the reply schema drops it before the screen sees the row
    const leaked = { ...ALL[0]!, partnerId: 'p-secret', sequenceId: 'SEQ-1', rate: '1550.000000000000', fiatWallet: 'USD' };
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([leaked], 1) } });
    const { user } = renderTransactions();
    const view = await screen.findByRole('button', { name: `View details of ${String(ALL[0]!.id)}` });
    await user.click(view);
    const drawer = await screen.findByRole('dialog', { name: 'Transaction details' }, { timeout: 2500 });
    expect(
      within(drawer)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Transaction details', 'Summary', 'Parties', 'Amounts']);
    const value = (label: string) => drawer.querySelector(`[data-field="${label}"] dd`)?.textContent;
    expect(value('Sequence ID')).toBe('SEQ-1');
    expect(value('Status')).toBe('Complete');
    expect(value('Date')).toBe('Nov 20, 2026, 12:00 UTC');
    expect(value('Amount')).toBe('NGN 1,000.50');
    expect(value('Converted amount')).toBe('USD 0.65');
    expect(value('Rate')).toBe('1 USD = 1,550.00 NGN');
    expect(value('Wallet amount')).toBe('USD 0.65');
    expect(value('Taken from your balance')).toBe('USD 0.65');
    expect(value('Paid to the recipient')).toBe('NGN 1,000.50');
    expect(value('Country')).toBe('Nigeria (NG)');
    expect(within(drawer).getByRole('button', { name: 'Copy ID' })).toBeTruthy();
    expect(within(drawer).queryByText('p-secret')).toBeNull();
    expect(drawer.textContent).not.toMatch(/2026-11-20T|complete|1550\.0000/);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(view));
  });

  it('keeps page, filters, id search and dates in the address, and starts from them', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user, router } = renderTransactions('/transactions?tab=1&page=2&status=failed&from=2026-11-01&to=2026-11-30');
    await waitFor(() =>
      expect(searches(api)[0]).toMatchObject({ filters: { status: 'failed' }, range: { startDate: '2026-11-01', endDate: '2026-11-30' }, startIndex: 10 }),
    );
    expect(screen.getByRole('button', { name: 'Status: Failed' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('From (UTC)').value).toBe('2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=1&from=2026-11-01&to=2026-11-30'));
    await user.type(screen.getByLabelText('Search by ID'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('id')).toBe('abc'));
    expect(searches(api).at(-1)).toMatchObject({ idFilter: 'abc', startIndex: 0 });
  });

  it('shows the last page for a page of the address past the end', async () => {
    mockApi({ ...base, 'POST transactions/search': search });
    const { router } = renderTransactions('/transactions?page=40');
    await pageShown('21–25 of 25');
    expect(router.state.location.search).toBe('?page=3');
    expect(screen.queryByTestId('empty-noData')).toBeNull();
  });

  it('shows no rows for a reversed date range on a fresh load, says why, turns Export off, and searches once it is fixed', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions('/transactions?from=2026-11-30&to=2026-11-01');
    expect((await screen.findByRole('alert')).textContent).toBe('The end date must be on or after the start date.');
    expect((await screen.findByTestId('empty-invalidFilter')).textContent).toContain('The end date must be on or after the start date.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(true);
    expect(searches(api)).toEqual([]);
    // fixed: searched at once
    const from = screen.getByLabelText('From (UTC)');
    await user.clear(from);
    await user.type(from, '2026-10-01');
    await pageShown('1–10 of 25');
    expect(searches(api).at(-1)).toMatchObject({ range: { startDate: '2026-10-01', endDate: '2026-11-01' } });
    expect(screen.queryByTestId('empty-invalidFilter')).toBeNull();
  });

  it('keeps both dates when From and To change before the screen draws again', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { router } = renderTransactions('/transactions');
    await pageShown('1–10 of 25');
    // both in one batch: the router's own functional update would read the address of the last render for each
    act(() => {
      fireEvent.change(screen.getByLabelText('From (UTC)'), { target: { value: '2026-11-02' } });
      fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2026-11-03' } });
    });
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ range: { startDate: '2026-11-02', endDate: '2026-11-03' } }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toMatchObject({ from: '2026-11-02', to: '2026-11-03' });
  });

  it('hides the rows of the last range as soon as the range is reversed', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions('/transactions?from=2026-11-01&to=2026-11-30');
    await pageShown('1–10 of 25');
    const from = screen.getByLabelText('From (UTC)');
    await user.clear(from);
    await user.type(from, '2026-12-15');
    expect(await screen.findByTestId('empty-invalidFilter')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(true);
    expect(searches(api).every((q) => !q.range.startDate || q.range.startDate <= q.range.endDate!)).toBe(true);
  });

  it('adds the wallet column and selector for a partner with fiat wallets, and opens the tab of ?tab=', async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) },
      // a currency account is not a wallet: the selector lists the fiat wallets only
      'GET partner/accounts': {
        body: accounts([
          { currency: 'USD', available: '1' },
          { currency: 'NGN', available: '2' },
          { currency: 'GHS', available: '3' },
        ]),
      },
      'GET partner/fiat-wallets': { body: fiatWallets() },
      'POST transactions/search': {
        body: searchReply([settlement({ type: 'payout', fiatWallet: 'NGN', fiatAmount: '1500', status: 'complete' })], 1, 'eq', 'settlements'),
      },
    });
    const { user } = renderTransactions('/transactions?tab=3');
    await pageShown('1–1 of 1');
    expect(screen.getByRole('tab', { name: 'Settlements' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'Date', 'Wallet', 'Transaction type', 'Amount', 'Status', 'View']);
    expect(column(2)).toEqual(['NGN']);
    // the wallet amount, and under it the crypto amount that left
    expect(column(4)).toEqual(['NGN 1,500.00USDT 1.00']);
    await user.click(screen.getByRole('button', { name: 'Wallet: All wallets' }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All wallets', 'USD', 'NGN', 'KES']));
    await user.click(screen.getByRole('option', { name: 'NGN' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ table: 'settlements', fiatWallet: 'NGN', startIndex: 0 }));
  });

  it('keeps the rows on screen when a live change brings new ones above them: they wait behind "N new", the rows shown still change in place', async () => {
    let rows = ALL.slice(0, 12);
    mockApi({ ...base, 'POST transactions/search': () => ({ body: searchReply(rows.slice(0, 10), rows.length) }) });
    const { user, queryClient } = renderTransactions();
    await pageShown('1–10 of 12');
    const before = column(0);
    // two payments arrive, and the first one on screen completes a refund
    const arrived = payments(2).map((r, i) => ({ ...r, id: `ffffffff-0000-4000-8000-00000000000${i}` }));
    rows = [...arrived, { ...ALL[0]!, status: 'refunded' }, ...ALL.slice(1, 12)];
    await act(() => queryClient.invalidateQueries({ queryKey: ['transactions'] }));
    const pill = await screen.findByRole('button', { name: /^2 new transactions/ });
    // nothing moved: the same rows in the same places, the first with its new status; the total counts the new ones
    expect(column(0)).toEqual(before);
    expect(column(4)[0]).toBe('Refunded');
    expect(summary()).toBe('1–10 of 14');
    await user.click(pill);
    await waitFor(() => expect(column(0)[0]).toBe('ffffffff…'));
    expect(column(0).slice(2)).toEqual(before.slice(0, 8));
    expect(screen.queryByTestId('show-new-rows')).toBeNull();
  });
});
