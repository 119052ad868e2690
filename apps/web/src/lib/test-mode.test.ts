import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PartnerAccounts } from '@portal/contract/partner';
import { mockApi } from '../testing/api-mock.ts';
import { accounts, profile, signIn } from '../testing/factories.ts';
import { api } from './api-client.ts';
import { beginStart, forgetStart, startOr } from './start.ts';
import { TEST_MODE_KEY, forgetTestMode, setTestMode, testModeHeaders, useTestMode } from './test-mode.ts';
import { followTestMode } from './test-mode-reset.ts';

describe('the test view', () => {
  beforeEach(() => localStorage.clear());

  it('is kept in local storage for the next load, and read from it at once', async () => {
    expect(useTestMode.getState().on).toBe(false);
    setTestMode(true);
    expect(useTestMode.getState().on).toBe(true);
    expect(localStorage.getItem(TEST_MODE_KEY)).toBe('on');
    // a reload: the module reads it before anything renders
    vi.resetModules();
    const reloaded = await import('./test-mode.ts');
    expect(reloaded.useTestMode.getState().on).toBe(true);
    expect(reloaded.testModeHeaders()).toEqual({ 'x-portal-mode': 'test' });
    setTestMode(false);
    expect(localStorage.getItem(TEST_MODE_KEY)).toBeNull();
    expect(testModeHeaders()).toEqual({});
  });

  it('is forgotten at logout', () => {
    setTestMode(true);
    forgetTestMode();
    expect(useTestMode.getState().on).toBe(false);
    expect(localStorage.getItem(TEST_MODE_KEY)).toBeNull();
  });
});

describe('switching between the live and the test view', () => {
  let client: QueryClient;
  let stop: () => void;
  beforeEach(() => {
    localStorage.clear();
    signIn('admin');
    forgetStart();
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    stop = followTestMode(client);
  });
  afterEach(() => {
    stop();
    client.clear();
  });

  it("forgets every query's data but the account's own (profile, preferences), and asks again for those on show with the header", async () => {
    const server = mockApi({
      'GET partner/accounts': (call) => ({ body: accounts([{ currency: 'USD', available: call.headers['x-portal-mode'] === 'test' ? '0.00' : '25000.00' }]) }),
    });
    // on show: a screen's observer keeps the accounts active
    const shown = new QueryObserver(client, { queryKey: ['partner', 'accounts'], queryFn: () => api.get('partner/accounts', { schema: PartnerAccounts }) });
    const stopShown = shown.subscribe(() => undefined);
    await vi.waitFor(() => expect(client.getQueryData<PartnerAccounts>(['partner', 'accounts'])?.accounts[0]?.available).toBe('25000.00'));
    client.setQueryData(['partner', 'profile'], profile());
    client.setQueryData(['user', 'u1', 'preferences'], { timeZone: null, language: null, startScreen: 'transactions' });
    client.setQueryData(['transactions', 'q', 0], { rows: ['a live row'] });

    setTestMode(true);
    // read of the other side: gone at once (a screen draws no live figure in the test view)
    expect(client.getQueryData(['transactions', 'q', 0])).toBeUndefined();
    expect(client.getQueryData(['partner', 'accounts'])).toBeUndefined();
    // the account's own: kept
    expect(client.getQueryData(['partner', 'profile'])).toEqual(profile());
    expect(client.getQueryData(['user', 'u1', 'preferences'])).toBeDefined();
    // the accounts on show are asked for again, for the test side
    await vi.waitFor(() => expect(client.getQueryData<PartnerAccounts>(['partner', 'accounts'])?.accounts[0]?.available).toBe('0.00'));
    expect(server.to('GET partner/accounts').map((c) => c.headers['x-portal-mode'])).toEqual([undefined, 'test']);

    // and back
    setTestMode(false);
    await vi.waitFor(() => expect(client.getQueryData<PartnerAccounts>(['partner', 'accounts'])?.accounts[0]?.available).toBe('25000.00'));
    stopShown();
  });

  it("lets the start data's balances go: the accounts are asked again for the side in view", async () => {
    const server = mockApi({
      'GET partner/start': { body: { profile: profile(), accounts: accounts([{ currency: 'USD', available: '25000.00' }]), csrf: 'c' } },
      'GET partner/accounts': { body: accounts([{ currency: 'USD', available: '0.00' }]) },
    });
    beginStart();
    setTestMode(true);
    const own = () => api.get('partner/accounts', { schema: PartnerAccounts });
    expect((await startOr('accounts', PartnerAccounts, own)).accounts[0]!.available).toBe('0.00');
    expect(server.to('GET partner/accounts')[0]!.headers['x-portal-mode']).toBe('test');
  });

  it('follows another tab of the browser', () => {
    localStorage.setItem(TEST_MODE_KEY, 'on');
    window.dispatchEvent(new StorageEvent('storage', { key: TEST_MODE_KEY, newValue: 'on' }));
    expect(useTestMode.getState().on).toBe(true);
    localStorage.removeItem(TEST_MODE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: TEST_MODE_KEY, newValue: null }));
    expect(useTestMode.getState().on).toBe(false);
  });
});
