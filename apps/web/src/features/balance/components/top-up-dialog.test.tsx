import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DepositAddress, DepositAddressesResponse } from '@portal/contract/partner';
import { TopUpDialog } from './top-up-dialog.tsx';

const TRC20: DepositAddress = {
  id: '7d0c3f4e-2b0a-4c1e-9f57-0b6f3a2d1c11',
  currencyNetwork: 'usdt-trc20',
  cryptocurrency: 'USDT',
  network: 'TRC20',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  tag: null,
  status: 'active',
  demo: false,
};

type Call = { method: string; url: string; body: unknown };

/** The server, as far as the dialog sees it: the address list, the request-forgery token and the POST. */
function server(list: DepositAddressesResponse, post: (body: unknown) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
      if (url === '/api/v1/security/csrf') return json(200, { csrf: 'token' });
      if (url === '/api/v1/partner/addresses' && method === 'GET') return json(200, list);
      if (url === '/api/v1/partner/addresses' && method === 'POST') {
        const answer = post(body);
        return json(answer.status, answer.body);
      }
      return json(404, { code: 'NotFound', message: 'not here', requestId: 'r' });
    }),
  );
  return calls;
}

function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TopUpDialog open onOpenChange={() => {}} b2b={false} />
    </QueryClientProvider>,
  );
}

describe('the top-up dialog', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('marks a demo address: do not send funds', async () => {
    server({ addresses: [{ ...TRC20, demo: true }], assignable: [] }, () => ({ status: 500, body: {} }));
    open();
    expect(await screen.findByTestId('deposit-address')).toHaveProperty('textContent', TRC20.address);
    expect(screen.getByTestId('demo-address-warning').textContent).toBe('Demo address: do not send funds');
  });

  it('shows a real address without the demo warning', async () => {
    server({ addresses: [TRC20], assignable: [] }, () => ({ status: 500, body: {} }));
    open();
    await screen.findByTestId('deposit-address');
    expect(screen.queryByTestId('demo-address-warning')).toBeNull();
  });

  it('says how long a high-value pay-in and a payment take (portal-core §9)', async () => {
    server({ addresses: [TRC20], assignable: [] }, () => ({ status: 500, body: {} }));
    open();
    await screen.findByTestId('deposit-address');
    expect(screen.getByTestId('top-up-times').textContent).toBe(
      'How long it takesHigh-value pay-ins are processed by hand: they take 6 to 36 hours.Payments arrive in 24 to 48 hours.',
    );
  });

  it("says 'Address not found', with no button, when the user may not get one", async () => {
    const calls = server({ addresses: [], assignable: ['usdc-erc20'] }, () => ({ status: 500, body: {} }));
    open();
    await waitFor(() => expect(screen.getAllByText('Address not found')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: /^Get a/ })).toBeNull();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('gets an address with the button where the server offers one, and shows it', async () => {
    const calls = server({ addresses: [], assignable: ['usdt-trc20'] }, () => ({ status: 201, body: { address: TRC20 } }));
    open();
    const button = await screen.findByRole('button', { name: 'Get a USDT (TRC20) address' });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]); // opening the dialog asks for nothing
    await userEvent.click(button);
    expect(await screen.findByTestId('deposit-address')).toHaveProperty('textContent', TRC20.address);
    expect(calls.filter((c) => c.url === '/api/v1/partner/addresses' && c.method === 'POST').map((c) => c.body)).toEqual([
      { currency: 'USDT', network: 'TRC20' },
    ]);
    expect(screen.queryByRole('button', { name: /^Get a/ })).toBeNull();
  });

  it("shows the server's reason when no address can be given", async () => {
    const message = 'No USDT (TRC20) deposit address can be assigned yet: none is configured. Contact support.';
    server({ addresses: [], assignable: ['usdt-trc20'] }, () => ({ status: 409, body: { code: 'Conflict', message, requestId: 'r1' } }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Get a USDT (TRC20) address' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByTestId('deposit-address')).toBeNull();
  });
});
