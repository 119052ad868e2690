import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCY_NETWORK_IDS, NETWORKS, type Network } from '@portal/contract/domain';
import { MANUAL_PAYOUT } from '@portal/contract/payout';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { createCacheBus } from '../src/lib/cache-bus.ts';
import { validateAddress } from '../src/lib/deposit-addresses.ts';
import { PARTNER_CACHE } from '../src/modules/partners/partner-cache.ts';
import { operatorService } from './operator-support.ts';
import { DATABASES, browser, memoryMailer, setupSignedIn, signIn, signedInCalls, twoInstances, type Session, type TestContext } from './harness.ts';

describe.each(DATABASES)('partner profile, balance and settings on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test']));
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string) => signedInCalls(s[email]!);

  it('answers the profile with every partner field, the kind flags and the feature flags', async () => {
    const res = await as('admin@kora.test').get('/api/v1/partner/profile');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      partner: { id: DEMO_PARTNERS.kora.id, name: 'Kora Trade', productTypes: ['COMMERCIAL'], isCommercial: true, isWhitelistedCommercial: true, isB2B: false },
      featureFlags: { paymentsViewEnabled: true, walletManagementEnabled: true, apiKeysManagementEnabled: false },
    });
  });

  it('answers the accounts of the caller only, balances as decimal strings from the ledger', async () => {
    const acme = (await as('viewer@acme.test').get('/api/v1/partner/accounts')).json<{
      partner: { id: string };
      accounts: { currency: string; available: string }[];
    }>();
    expect(acme.partner.id).toBe(DEMO_PARTNERS.acme.id);
    const usd = acme.accounts.find((a) => a.currency === 'USD')!;
    expect(Number(usd.available)).toBe(25000);
    expect(typeof usd.available).toBe('string');
    const lean = (await as('admin@lean.test').get(`/api/v1/partner/accounts?partnerId=${DEMO_PARTNERS.acme.id}`)).json<{
      partner: { id: string };
      accounts: { currency: string; available: string }[];
    }>();
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
      for (const body of [
        {},
        { lowBalanceLimit: null },
        { lowBalanceLimit: '0' },
        { lowBalanceLimit: 0 },
        { lowBalanceLimit: '-5' },
        { lowBalanceLimit: '12abc' },
        { lowBalanceLimit: '0.00' },
        { lowBalanceLimit: 'abc' },
        { lowBalanceLimit: '0.001' },
        { lowBalanceLimit: '12.345' },
        { lowBalanceLimit: -5 },
      ]) {
        const res = await as('admin@acme.test').post('/api/v1/partner/low-balance-limit', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ message: string }>().message).toContain('Invalid low balance limit value');
      }
    });

    it('lets an admin set it, on its own partner only, whatever partnerId the body names', async () => {
      const res = await as('admin@acme.test').post('/api/v1/partner/low-balance-limit', { partnerId: DEMO_PARTNERS.lean.id, lowBalanceLimit: '2500.50' });
      expect(res.statusCode).toBe(200);
      const acme = (await as('admin@acme.test').get('/api/v1/partner/profile')).json<{ partner: { lowBalanceLimit: string } }>();
      expect(Number(acme.partner.lowBalanceLimit)).toBe(2500.5);
      const lean = (await as('admin@lean.test').get('/api/v1/partner/profile')).json<{ partner: { lowBalanceLimit: string | null } }>();
      expect(lean.partner.lowBalanceLimit).toBeNull();
      const events = await t.database.db.selectFrom('audit_events').select(['partner_id']).where('action', '=', 'partner.low_balance_limit_changed').execute();
      expect(events).toEqual([{ partner_id: DEMO_PARTNERS.acme.id }]);
    });

    it('says what is wrong with a refused value, and stores a typed one plainly', async () => {
      const said = async (lowBalanceLimit: unknown) =>
        (await as('admin@acme.test').post('/api/v1/partner/low-balance-limit', { lowBalanceLimit })).json<{ message: string; lowBalanceLimit: string }>();
      expect((await said('-5')).message).toBe('Invalid low balance limit value: the limit must be above zero.');
      expect((await said('0.001')).message).toBe('Invalid low balance limit value: use at most 2 decimals (cents).');
      expect((await said('abc')).message).toBe('Invalid low balance limit value: enter a number, like 1000 or 2500.50.');
      expect((await said('1,500.5')).lowBalanceLimit).toBe('1500.5');
    });
  });

  describe('payout configuration', () => {
    // every Friday, never ending (the other fields null)
    const weekly = { ...MANUAL_PAYOUT, type: 'AUTOMATED', frequency: 'Weekly', repeatFrequency: 1, weeklyDays: ['Friday'], endPayout: 'Never' };

    it('answers manual for a partner that never set one, and the stored schedule with its next date', async () => {
      const lean = (await as('admin@lean.test').get('/api/v1/partner/payout-config')).json<{ config: { type: string }; nextPayoutDate: string | null }>();
      expect(lean).toMatchObject({ config: { type: 'MANUAL', frequency: null, weeklyDays: [] }, nextPayoutDate: null });
      const acme = (await as('viewer@acme.test').get('/api/v1/partner/payout-config')).json<{
        config: { frequency: string; weeklyDays: string[] };
        nextPayoutDate: string;
      }>();
      expect(acme.config).toMatchObject({ frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] });
      expect(['Monday', 'Thursday']).toContain(new Date(`${acme.nextPayoutDate}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }));
    });

    it('counts a repeat frequency from the day the schedule was saved', async () => {
      const saved = t.clock.now;
      try {
        t.clock.now = Date.parse('2026-01-05T09:00:00Z'); // a Monday
        const fortnightly = { ...weekly, repeatFrequency: 2, weeklyDays: ['Monday', 'Thursday'] };
        const res = await as('admin@lean.test').post('/api/v1/partner/payout-config', fortnightly);
        expect(res.json()).toMatchObject({ config: { repeatFrequency: 2 }, nextPayoutDate: '2026-01-08' });
        const read = async () => (await as('admin@lean.test').get('/api/v1/partner/payout-config')).json<{ nextPayoutDate: string }>().nextPayoutDate;
        t.clock.now = Date.parse('2026-01-08T12:00:00Z');
        expect(await read()).toBe('2026-01-19');
        t.clock.now = Date.parse('2026-01-30T12:00:00Z');
        expect(await read()).toBe('2026-02-02');
      } finally {
        t.clock.now = saved;
        await as('admin@lean.test').post('/api/v1/partner/payout-config', { ...weekly, type: 'MANUAL' });
      }
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
      expect(bad.json<{ message: string }>().message).toMatch(/^Days of the week › item 1 must be one of: Monday/);
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

  describe('deposit addresses (DEMO on)', () => {
    type Addr = { currencyNetwork: string; network: string; cryptocurrency: string; address: string; tag: string | null; status: string; demo: boolean };
    type List = { addresses: Addr[]; assignable: string[] };
    const counts = async () => {
      const db = t.database.db;
      const n = async (table: 'deposit_addresses' | 'deposit_derivation_counters' | 'deposit_address_pool' | 'audit_events') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return [await n('deposit_addresses'), await n('deposit_derivation_counters'), await n('deposit_address_pool'), await n('audit_events')];
    };

    it('never writes on a GET: a partner without addresses gets none, and a 404 for the default one', async () => {
      const before = await counts();
      for (const email of ['admin@lean.test', 'admin@acme.test', 'viewer@acme.test', 'admin@kora.test']) {
        expect((await as(email).get('/api/v1/partner/addresses')).statusCode, email).toBe(200);
        for (const cn of ['usdt-trc20', 'usdt-sol', 'usdc-xlm', 'btc-btc']) await as(email).get(`/api/v1/partner/address?currencyNetwork=${cn}`);
      }
      const lean = (await as('admin@lean.test').get('/api/v1/partner/addresses')).json<List>();
      expect(lean.addresses).toEqual([]);
      const missing = await as('admin@lean.test').get('/api/v1/partner/address');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'NotFound', message: 'Address not found' });
      expect(await counts()).toEqual(before);
    });

    it('shows the demo addresses made at seed time, valid for their network and marked demo', async () => {
      const { addresses } = (await as('treasury@acme.test').get('/api/v1/partner/addresses')).json<List>();
      expect(addresses.length).toBeGreaterThanOrEqual(8);
      for (const a of addresses) {
        expect(NETWORKS).toContain(a.network);
        expect(validateAddress(a.network as Network, a.address), `${a.currencyNetwork} ${a.address}`).toBe(true);
        expect(a.tag === null).toBe(a.network !== 'XLM');
        expect(a.demo).toBe(true);
      }
      const trc20 = (await as('viewer@acme.test').get('/api/v1/partner/address')).json<{ address: Addr }>();
      expect(trc20.address).toMatchObject({ currencyNetwork: 'usdt-trc20', status: 'active', demo: true });
      const xlm = (await as('treasury@acme.test').get('/api/v1/partner/address?currencyNetwork=usdc-xlm')).json<{ address: Addr }>();
      expect(xlm.address.tag).toMatch(/^\d+$/);
      const unknown = await as('admin@lean.test').get('/api/v1/partner/address?currencyNetwork=doge-doge');
      expect(unknown.statusCode).toBe(400);
    });

    it('offers admin and treasury the currency networks they have no address for; a view user none', async () => {
      const admin = (await as('admin@kora.test').get('/api/v1/partner/addresses')).json<List>();
      expect(admin.addresses.map((a) => a.currencyNetwork).sort()).toEqual(['usdc-erc20', 'usdt-trc20']);
      expect(admin.assignable).toHaveLength(CURRENCY_NETWORK_IDS.length - 2);
      expect(admin.assignable).not.toContain('usdt-trc20');
      const viewer = (await as('viewer@acme.test').get('/api/v1/partner/addresses')).json<List>();
      expect(viewer.assignable).toEqual([]);
    });

    it('refuses POST partner/addresses to a view user, without a token, and for a pair that is not offered', async () => {
      const view = await as('viewer@acme.test').post('/api/v1/partner/addresses', { currency: 'USDC', network: 'BASE' });
      expect(view.statusCode).toBe(403);
      expect(view.json()).toMatchObject({ code: 'Forbidden' });
      // with the request-forgery token but no access token
      const anonymous = await browser(t.app).post('/api/v1/partner/addresses', { currency: 'USDC', network: 'BASE' });
      expect(anonymous.statusCode).toBe(401);
      const pair = await as('admin@lean.test').post('/api/v1/partner/addresses', { currency: 'BTC', network: 'SOL' });
      expect(pair.statusCode).toBe(400);
      expect(pair.json()).toMatchObject({ code: 'ValidationFailed', message: 'BTC is not offered on SOL' });
      for (const body of [{}, { currency: 'DOGE', network: 'TRC20' }, { currency: 'USDT', network: 'TRON' }]) {
        const res = await as('admin@lean.test').post('/api/v1/partner/addresses', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'ValidationFailed' });
      }
      expect((await as('admin@lean.test').get('/api/v1/partner/addresses')).json<List>().addresses).toEqual([]);
    });

    it("gives a demo address on POST, to the caller's own partner whatever partnerId the body names, once", async () => {
      const first = await as('treasury@acme.test').post('/api/v1/partner/addresses', { currency: 'USDC', network: 'BASE', partnerId: DEMO_PARTNERS.lean.id });
      // acme has usdc-base from the seed: the same one comes back
      expect(first.statusCode).toBe(200);
      const res = await as('admin@lean.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'TRC20', partnerId: DEMO_PARTNERS.acme.id });
      expect(res.statusCode).toBe(201);
      const { address } = res.json<{ address: Addr }>();
      expect(address).toMatchObject({ currencyNetwork: 'usdt-trc20', cryptocurrency: 'USDT', network: 'TRC20', status: 'active', tag: null, demo: true });
      expect(validateAddress('TRC20', address.address)).toBe(true);
      const again = await as('admin@lean.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'TRC20' });
      expect(again.statusCode).toBe(200);
      expect(again.json<{ address: Addr }>().address.address).toBe(address.address);
      const lean = (await as('admin@lean.test').get('/api/v1/partner/address')).json<{ address: Addr }>();
      expect(lean.address.address).toBe(address.address);
      const acme = (await as('admin@acme.test').get('/api/v1/partner/addresses')).json<List>();
      expect(acme.addresses.map((a) => a.address)).not.toContain(address.address);
      const events = await t.database.db
        .selectFrom('audit_events')
        .select(['partner_id', 'actor', 'details'])
        .where('action', '=', 'deposit_address.assigned')
        .execute();
      expect(events).toEqual([
        {
          partner_id: DEMO_PARTNERS.lean.id,
          actor: 'admin@lean.test',
          // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
          details: expect.objectContaining({ currencyNetwork: 'usdt-trc20', address: address.address, source: 'demo' }),
        },
      ]);
    });

    it('never shows one partner the addresses of another', async () => {
      const acme = (await as('admin@acme.test').get('/api/v1/partner/addresses')).json<List>().addresses.map((a) => a.address);
      const kora = (await as('admin@kora.test').get('/api/v1/partner/addresses')).json<List>().addresses.map((a) => a.address);
      const lean = (await as('admin@lean.test').get('/api/v1/partner/addresses')).json<List>().addresses.map((a) => a.address);
      expect(acme.filter((a) => kora.includes(a) || lean.includes(a))).toEqual([]);
      expect(kora.filter((a) => lean.includes(a))).toEqual([]);
    });
  });

  it('refuses every partner call without a token', async () => {
    for (const url of [
      '/api/v1/partner/profile',
      '/api/v1/partner/accounts',
      '/api/v1/partner/payout-config',
      '/api/v1/partner/addresses',
      '/api/v1/partner/address',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});

/** The partner row is cached per instance: a change made on one instance, or by the operator, drops it on the others. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the partner row on two instances of one PostgreSQL database', () => {
  let two: Awaited<ReturnType<typeof twoInstances>>;
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    two = await twoInstances({ config: { LOGIN_RATE_LIMIT: '1000' } });
    ({ a, b } = two);
  });
  afterAll(async () => {
    await two?.close();
  });

  it('shows on the other instance well within the cache lifetime a limit set on one, and flags the operator set', async () => {
    const s = await signIn(a, 'admin@lean.test');
    const profileOnB = async () =>
      (await b.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${s.accessToken}` } })).json<{
        partner: { lowBalanceLimit: string | null };
        featureFlags: Record<string, boolean>;
      }>();
    expect((await profileOnB()).partner.lowBalanceLimit).toBeNull(); // b caches the row now, for 5 s
    expect((await s.browser.post('/api/v1/partner/low-balance-limit', { lowBalanceLimit: '750' }, { token: s.accessToken })).statusCode).toBe(200);
    await expect.poll(async () => Number((await profileOnB()).partner.lowBalanceLimit), { timeout: 2000, interval: 20 }).toBe(750);

    expect((await profileOnB()).featureFlags.webhooksManagementEnabled).toBe(false);
    const bus = createCacheBus({ database: a.database });
    const operator = operatorService({
      db: a.database.db,
      live: a.app.liveBus,
      mailer: memoryMailer(),
      publicUrl: 'https://portal.test',
      invalidatePartner: (id) => bus.invalidate(PARTNER_CACHE, id),
    });
    await operator.setFeatureFlags(DEMO_PARTNERS.lean.id, { webhooksManagementEnabled: true });
    await bus.close();
    await expect.poll(async () => (await profileOnB()).featureFlags.webhooksManagementEnabled, { timeout: 2000, interval: 20 }).toBe(true);
  });
});
