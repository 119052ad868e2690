import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SearchRequest } from '@portal/contract/transactions';
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
  const rows = ALL.filter((r) => !q.filters.status || r.status === q.filters.status).filter((r) => !q.idFilter || String(r.id).startsWith(q.idFilter));
  return { body: searchReply(rows.slice(q.startIndex, q.startIndex + q.size), rows.length) };
}

const base = { 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } };
const renderTransactions = (url = '/transactions') => renderScreen(<TransactionsScreen />, { path: '/transactions', url });
const bodyRows = () => screen.getAllByRole('row').slice(1);
const column = (n: number) => bodyRows().map((r) => within(r).getAllByRole('cell')[n]!.textContent);
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
    expect(within(bodyRows()[0]!).getAllByRole('cell').map((c) => c.textContent).slice(0, 6)).toEqual(['00000000…', formatDate(ALL[0]!.createdAt as string), 'NG', 'NGN 1,000.50', 'Complete', 'Bank']);
    expect(column(4)[1]).toBe('Failed');
    expect(searches(api)).toEqual([{ table: 'payments', filters: {}, idFilter: '', range: {}, fiatWallet: 'all', startIndex: 0, size: 10 }]);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('pages by 10 and stops at the last page', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    await user.click(next);
    await pageShown('11–20 of 25');
    expect(column(0)[0]).toBe('00000010…');
    await user.click(next);
    await pageShown('21–25 of 25');
    expect(bodyRows()).toHaveLength(5);
    expect(next.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await pageShown('11–20 of 25');
    expect(searches(api).map((b) => b.startIndex)).toEqual([0, 10, 20]);
    // Next carries the keyset hint of the last row shown (the page before was cached: Previous asked nothing)
    expect(searches(api).map((b) => b.anchor)).toEqual([undefined, { index: 9, createdAt: ALL[9]!.createdAt, id: ALL[9]!.id }, { index: 19, createdAt: ALL[19]!.createdAt, id: ALL[19]!.id }]);
  });

  it('filters by status from the first page, and resets the filter', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': search });
    const { user } = renderTransactions();
    await pageShown('1–10 of 25');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown('11–20 of 25');
    await user.click(screen.getByRole('button', { name: 'Status: All' }));
    await user.click(screen.getByRole('option', { name: 'Failed' }));
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
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toHaveLength(24);
    expect(options).toContain('Pending Kyc');
  });

  it('says there is nothing yet when the partner has no payments', async () => {
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([], 0) } });
    renderTransactions();
    expect((await screen.findByTestId('empty-noData')).textContent).toContain('No transactions yet');
    expect(screen.queryByRole('table')).toBeNull();
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
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
    await user.click(screen.getByRole('option', { name: 'Refunded' }));
    expect(await screen.findByTestId('empty-noDataForFilter')).toBeTruthy();
  });

  it("shows the table's own message when the search fails", async () => {
    mockApi({ ...base, 'POST transactions/search': apiError(500, 'InternalError', 'boom') });
    renderTransactions();
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Could not retrieve payment records'));
  });

  it('opens the details of a row in a drawer, without the partner id', async () => {
    // a reply that carries a partner id anyway: the reply schema drops it before the screen sees the row
    const leaked = { ...ALL[0]!, partnerId: 'p-secret', sequenceId: 'SEQ-1' };
    mockApi({ ...base, 'POST transactions/search': { body: searchReply([leaked], 1) } });
    const { user } = renderTransactions();
    await user.click(await screen.findByRole('button', { name: `View ${String(ALL[0]!.id)}` }));
    const drawer = screen.getByRole('dialog', { name: 'Transaction details' });
    expect(within(drawer).getByText('Sequence Id').nextElementSibling?.textContent).toBe('SEQ-1');
    expect(within(drawer).queryByText('p-secret')).toBeNull();
  });

  it('adds the wallet column and selector for a partner with fiat wallets, and opens the tab of ?tab=', async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile({ fiatWalletsEnabled: true }) },
      // a currency account is not a wallet: the selector lists the fiat wallets only
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '1' }, { currency: 'NGN', available: '2' }, { currency: 'GHS', available: '3' }]) },
      'GET partner/fiat-wallets': { body: fiatWallets() },
      'POST transactions/search': { body: searchReply([settlement({ type: 'payout', fiatWallet: 'NGN', fiatAmount: '1500', status: 'complete' })], 1, 'eq', 'settlements') },
    });
    const { user } = renderTransactions('/transactions?tab=3');
    await pageShown('1–1 of 1');
    expect(screen.getByRole('tab', { name: 'Settlements' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'Date', 'Wallet', 'Transaction type', 'Amount', 'Status', 'View']);
    expect(column(2)).toEqual(['NGN']);
    expect(column(4)).toEqual(['NGN 1,500.00']);
    await user.click(screen.getByRole('button', { name: 'Wallet: All wallets' }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All wallets', 'USD', 'NGN', 'KES']));
    await user.click(screen.getByRole('option', { name: 'NGN' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ table: 'settlements', fiatWallet: 'NGN', startIndex: 0 }));
  });
});
