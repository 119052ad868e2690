import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORKS, type Network } from '@portal/contract/domain';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { validateAddress } from '../src/lib/deposit-addresses.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

describe.each(DATABASES)('partner profile, balance and settings on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string) => ({
    get: (url: string) => s[email]!.browser.get(url, { token: s[email]!.accessToken }),
    post: (url: string, body: unknown) => s[email]!.browser.post(url, body, { token: s[email]!.accessToken }),
  });

  it('answers the profile with every partner field, the kind flags and the feature flags', async () => {
    const res = await as('admin@kora.test').get('/api/v1/partner/profile');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      partner: { id: DEMO_PARTNERS.kora.id, name: 'Kora Trade', productTypes: ['COMMERCIAL'], isCommercial: true, isWhitelistedCommercial: true, isB2B: false },
      featureFlags: { paymentsViewEnabled: true, walletManagementEnabled: true, apiKeysManagementEnabled: false },
    });
  });

  it('answers the accounts of the caller only, balances as decimal strings from the ledger', async () => {
    const acme = (await as('viewer@acme.test').get('/api/v1/partner/accounts')).json<{ partner: { id: string }; accounts: { currency: string; available: string }[] }>();
    expect(acme.partner.id).toBe(DEMO_PARTNERS.acme.id);
    const usd = acme.accounts.find((a) => a.currency === 'USD')!;
    expect(Number(usd.available)).toBe(25000);
    expect(typeof usd.available).toBe('string');
    const lean = (await as('admin@lean.test').get(`/api/v1/partner/accounts?partnerId=${DEMO_PARTNERS.acme.id}`)).json<{ partner: { id: string }; accounts: { currency: string; available: string }[] }>();
    expect(lean.partner.id).toBe(DEMO_PARTNERS.lean.id);
    expect(lean.accounts.map((a) => [a.currency, Number(a.available)])).toEqual([['USD', 400]]);
  });

  describe('low-balance limit', () => {
    it('refuses treasury and view users', async () => {
      for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
        const res = await as(email).post('/api/v1/partner/low-balance-limit', { lowBalanceLimit: '5000' });
        expect(res.statusCode, email).toBe(403);
        expect(res.json()).toMatchObject({ code: 'Forbidden' });
      }
    });

    it("refuses a missing, zero, negative or malformed value with 'Invalid low balance limit value'", async () => {
      for (const body of [{}, { lowBalanceLimit: null }, { lowBalanceLimit: '0' }, { lowBalanceLimit: 0 }, { lowBalanceLimit: '-5' }, { lowBalanceLimit: '12abc' }, { lowBalanceLimit: '0.00' }]) {
        const res = await as('admin@acme.test').post('/api/v1/partner/low-balance-limit', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ message: string }>().message).toContain('Invalid low balance limit value');
      }
    });

    it("lets an admin set it, on its own partner only, whatever partnerId the body names", async () => {
      const res = await as('admin@acme.test').post('/api/v1/partner/low-balance-limit', { partnerId: DEMO_PARTNERS.lean.id, lowBalanceLimit: '2500.50' });
      expect(res.statusCode).toBe(200);
      const acme = (await as('admin@acme.test').get('/api/v1/partner/profile')).json<{ partner: { lowBalanceLimit: string } }>();
      expect(Number(acme.partner.lowBalanceLimit)).toBe(2500.5);
      const lean = (await as('admin@lean.test').get('/api/v1/partner/profile')).json<{ partner: { lowBalanceLimit: string | null } }>();
      expect(lean.partner.lowBalanceLimit).toBeNull();
      const events = await t.database.db.selectFrom('audit_events').select(['partner_id']).where('action', '=', 'partner.low_balance_limit_changed').execute();
      expect(events).toEqual([{ partner_id: DEMO_PARTNERS.acme.id }]);
    });
  });

  describe('payout configuration', () => {
    const weekly = { type: 'AUTOMATED', frequency: 'Weekly', repeatFrequency: 1, weeklyDays: ['Friday'], monthlyDate: null, yearlyDate: null, endPayout: 'Never', endPayoutAfter: null, endPayoutDate: null };

    it('answers manual for a partner that never set one, and the stored schedule with its next date', async () => {
      const lean = (await as('admin@lean.test').get('/api/v1/partner/payout-config')).json<{ config: { type: string }; nextPayoutDate: string | null }>();
      expect(lean).toMatchObject({ config: { type: 'MANUAL', frequency: null, weeklyDays: [] }, nextPayoutDate: null });
      const acme = (await as('viewer@acme.test').get('/api/v1/partner/payout-config')).json<{ config: { frequency: string; weeklyDays: string[] }; nextPayoutDate: string }>();
      expect(acme.config).toMatchObject({ frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] });
      expect(['Monday', 'Thursday']).toContain(new Date(`${acme.nextPayoutDate}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }));
    });

    it('refuses treasury and view users', async () => {
      for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
        expect((await as(email).post('/api/v1/partner/payout-config', weekly)).statusCode, email).toBe(403);
      }
    });

    it('names the broken rule', async () => {
      const cases: [object, string][] = [
        [{ ...weekly, weeklyDays: [] }, 'A weekly schedule needs at least one day.'],
        [{ ...weekly, frequency: 'Monthly', weeklyDays: [] }, 'A monthly schedule needs a date of the month.'],
        [{ ...weekly, frequency: 'Yearly' }, 'A yearly schedule needs a month and a day.'],
        [{ ...weekly, frequency: null }, 'Choose how often payouts happen.'],
        [{ ...weekly, endPayout: 'After Payouts' }, 'Say after how many payouts the schedule ends.'],
        [{ ...weekly, endPayout: 'On' }, 'Choose the date on which payouts end.'],
      ];
      for (const [body, message] of cases) {
        const res = await as('admin@lean.test').post('/api/v1/partner/payout-config', body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ message });
      }
      const bad = await as('admin@lean.test').post('/api/v1/partner/payout-config', { ...weekly, weeklyDays: ['Funday'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain('weeklyDays');
    });

    it('saves a monthly 31st schedule and gives the next date with the month-end fallback', async () => {
      t.clock.now = Date.parse('2027-02-10T12:00:00Z');
      const res = await as('admin@lean.test').post('/api/v1/partner/payout-config', { ...weekly, frequency: 'Monthly', weeklyDays: [], monthlyDate: 31 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ config: { type: 'AUTOMATED', frequency: 'Monthly', monthlyDate: 31, weeklyDays: [] }, nextPayoutDate: '2027-02-28' });
      const profile = (await as('admin@lean.test').get('/api/v1/partner/profile')).json<{ partner: { payoutType: string; payoutFrequency: string } }>();
      expect(profile.partner).toMatchObject({ payoutType: 'AUTOMATED', payoutFrequency: 'Monthly' });
      // another partner's schedule is untouched
      const acme = (await as('admin@acme.test').get('/api/v1/partner/payout-config')).json<{ config: { frequency: string } }>();
      expect(acme.config.frequency).toBe('Weekly');
      const manual = await as('admin@lean.test').post('/api/v1/partner/payout-config', { ...weekly, type: 'MANUAL' });
      expect(manual.json()).toMatchObject({ config: { type: 'MANUAL', frequency: null, weeklyDays: [], endPayout: null }, nextPayoutDate: null });
    });
  });

  describe('deposit addresses', () => {
    type Addr = { currencyNetwork: string; network: string; cryptocurrency: string; address: string; tag: string | null; status: string };

    it('assigns the default USDT on TRC20 address, active, to a partner without any', async () => {
      const res = await as('admin@lean.test').get('/api/v1/partner/addresses');
      const { addresses } = res.json<{ addresses: Addr[] }>();
      expect(addresses).toHaveLength(1);
      expect(addresses[0]).toMatchObject({ currencyNetwork: 'usdt-trc20', cryptocurrency: 'USDT', network: 'TRC20', status: 'active', tag: null });
      expect(validateAddress('TRC20', addresses[0]!.address)).toBe(true);
      const again = (await as('admin@lean.test').get('/api/v1/partner/address?currencyNetwork=usdt-trc20')).json<{ address: Addr }>();
      expect(again.address.address).toBe(addresses[0]!.address);
    });

    it('answers a valid address per network, an XLM memo tag, and 404 where the partner has none', async () => {
      const { addresses } = (await as('treasury@acme.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[] }>();
      expect(addresses.length).toBeGreaterThanOrEqual(8);
      for (const a of addresses) {
        expect(NETWORKS).toContain(a.network);
        expect(validateAddress(a.network as Network, a.address), `${a.currencyNetwork} ${a.address}`).toBe(true);
        expect(a.tag === null).toBe(a.network !== 'XLM');
      }
      const xlm = (await as('treasury@acme.test').get('/api/v1/partner/address?currencyNetwork=usdc-xlm')).json<{ address: Addr }>();
      expect(xlm.address.tag).toMatch(/^\d+$/);
      const missing = await as('admin@lean.test').get('/api/v1/partner/address?currencyNetwork=usdc-base');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ message: 'Address not found' });
      const unknown = await as('admin@lean.test').get('/api/v1/partner/address?currencyNetwork=doge-doge');
      expect(unknown.statusCode).toBe(400);
    });

    it('never shows one partner the addresses of another', async () => {
      const acme = (await as('admin@acme.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[] }>().addresses.map((a) => a.address);
      const kora = (await as('admin@kora.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[] }>().addresses.map((a) => a.address);
      const lean = (await as('admin@lean.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[] }>().addresses.map((a) => a.address);
      expect(acme.filter((a) => kora.includes(a) || lean.includes(a))).toEqual([]);
      expect(kora.filter((a) => lean.includes(a))).toEqual([]);
    });
  });

  it('refuses every partner call without a token', async () => {
    for (const url of ['/api/v1/partner/profile', '/api/v1/partner/accounts', '/api/v1/partner/payout-config', '/api/v1/partner/addresses', '/api/v1/partner/address']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});
