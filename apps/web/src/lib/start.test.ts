import { beforeEach, describe, expect, it } from 'vitest';
import { PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import { mockApi } from '../testing/api-mock.ts';
import { accounts, profile, signIn } from '../testing/factories.ts';
import { api } from './api-client.ts';
import { beginStart, forgetStart, startOr } from './start.ts';

const START = {
  profile: profile(),
  accounts: accounts(),
  rates: null,
  wallets: null,
  fiatWallets: null,
  preferences: null,
  notifications: null,
  csrf: 'csrf-start',
};

describe('the start data', () => {
  beforeEach(() => {
    signIn('admin');
    forgetStart();
  });

  it("serves each query's first read from one call, once: a later read is the query's own call", async () => {
    const calls = mockApi({ 'GET partner/start': { body: START }, 'GET partner/profile': { body: profile({ name: 'Read again' }) } });
    beginStart();
    const own = () => api.get('partner/profile', { schema: PartnerProfile });
    expect((await startOr('profile', PartnerProfile, own)).partner.name).toBe(START.profile.partner.name);
    expect((await startOr('accounts', PartnerAccounts, () => api.get('partner/accounts', { schema: PartnerAccounts }))).accounts).toEqual(
      START.accounts.accounts,
    );
    expect(calls.to('GET partner/profile')).toHaveLength(0);
    // taken once: the next read (a refetch, a live change) asks the server
    expect((await startOr('profile', PartnerProfile, own)).partner.name).toBe('Read again');
    expect(calls.to('GET partner/start')).toHaveLength(1);
  });

  it('reads each part in a task of its own, not in the task that asked (the screen mounting)', async () => {
    mockApi({ 'GET partner/start': { body: START } });
    beginStart();
    // the reply has arrived and been kept (a first read waits for it)
    await startOr('wallets', { parse: (v) => v }, () => Promise.resolve(null));
    const read: string[] = [];
    const schema = (part: string) => ({ parse: (v: unknown) => (read.push(part), v as object) });
    const both = Promise.all([
      startOr('profile', schema('profile'), () => Promise.reject(new Error('own'))),
      startOr('accounts', schema('accounts'), () => Promise.reject(new Error('own'))),
    ]);
    // the microtasks of this task run out without either part read
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
    expect(read).toEqual([]);
    await both;
    expect(read).toEqual(['profile', 'accounts']);
  });

  it('leaves a part the start data holds none of (null: its call would refuse) to its own call', async () => {
    const calls = mockApi({ 'GET partner/start': { body: START }, 'GET partner/rates': { body: { rates: [] } } });
    beginStart();
    const rates = await startOr('rates', { parse: (v) => v as { rates: unknown[] } }, () => api.get<{ rates: unknown[] }>('partner/rates'));
    expect(rates).toEqual({ rates: [] });
    expect(calls.to('GET partner/rates')).toHaveLength(1);
  });

  it('lets a change wait for the token the start data brings instead of asking for one', async () => {
    const calls = mockApi({ 'GET partner/start': { body: START }, 'PUT user/preferences': { body: { timeZone: null } } });
    beginStart();
    await api.put('user/preferences', { timeZone: null });
    expect(calls.to('PUT user/preferences')[0]!.headers['x-csrf-token']).toBe('csrf-start');
    expect(calls.to('POST security/csrf')).toHaveLength(0);
  });

  it('falls back to the calls when the start call fails, and keeps nothing across a logout', async () => {
    let calls = mockApi({ 'GET partner/start': { status: 500, body: { code: 'InternalError', message: 'x' } }, 'GET partner/profile': { body: profile() } });
    beginStart();
    await startOr('profile', PartnerProfile, () => api.get('partner/profile', { schema: PartnerProfile }));
    expect(calls.to('GET partner/profile')).toHaveLength(1);
    // a reply that arrives after a logout is not kept for the next user
    calls = mockApi({ 'GET partner/start': { body: START }, 'GET partner/profile': { body: profile({ name: 'Next user' }) } });
    beginStart();
    forgetStart();
    expect((await startOr('profile', PartnerProfile, () => api.get('partner/profile', { schema: PartnerProfile }))).partner.name).toBe('Next user');
    expect(calls.to('GET partner/profile')).toHaveLength(1);
  });
});
