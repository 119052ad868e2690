import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { idSearchMessage, type SearchRequest } from '@portal/contract/transactions';
import { mockApi } from '../../../testing/api-mock.ts';
import { accounts, payments, profile, searchReply, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TransactionsScreen } from '../routes/transactions.tsx';
import { TradesScreen } from '../routes/trades.tsx';

const base = { 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } };
const searches = (api: ReturnType<typeof mockApi>) => api.to('POST transactions/search').map((c) => c.body as SearchRequest);

describe('id search box', () => {
  beforeEach(() => signIn('view'));

  it('refuses text that cannot be an id with the message the server would give, and sends nothing', async () => {
    const api = mockApi({ ...base, 'POST transactions/search': { body: searchReply(payments(3)) } });
    const { user } = renderScreen(<TransactionsScreen />, { path: '/transactions', url: '/transactions' });
    await waitFor(() => expect(searches(api)).toHaveLength(1));
    const box = screen.getByLabelText('Search by ID');
    await user.type(box, 'hello world!');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toBe(idSearchMessage('payments'));
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(searches(api)).toHaveLength(1);
    // typing again clears the refusal; an id, trimmed, is sent as typed for the server to match
    await user.clear(box);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(box, '  EE71ABF0-841C  ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ idFilter: 'EE71ABF0-841C' }));
  });

  it('on trades, asks for the trade id as shown and sends it', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile({ productTypes: ['COMMERCIAL'], whitelisted: true }) },
      'GET partner/accounts': { body: accounts() },
      'POST transactions/search': { body: searchReply([], 0, 'eq', 'trades') },
    });
    const { user } = renderScreen(<TradesScreen />, { path: '/trades', url: '/trades' });
    const box = await screen.findByLabelText('Search by ID');
    expect(box.getAttribute('placeholder')).toBe('e.g. TRD-5F41110478');
    await user.type(box, 'TRD-XYZ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toBe(idSearchMessage('trades'));
    await user.clear(box);
    await user.type(box, 'trd-5f41110478');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ table: 'trades', idFilter: 'trd-5f41110478' }));
  });
});
