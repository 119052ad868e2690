import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsResponse, NetworksResponse, type Channel, type PaymentNetwork } from '@portal/contract/coverage';
import { COUNTRY_CURRENCIES } from '@portal/contract/countries';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

describe.each(DATABASES)('coverage reference data (channels, networks) on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, email = 'viewer@acme.test') => s[email]!.browser.get(url, { token: s[email]!.accessToken });
  const channels = async (query = '', email?: string) => {
    const res = await get(`/api/v1/channels${query}`, email);
    expect(res.statusCode, res.body).toBe(200);
    return ChannelsResponse.parse(res.json()).channels;
  };
  const networks = async (query = '', email?: string) => {
    const res = await get(`/api/v1/networks${query}`, email);
    expect(res.statusCode, res.body).toBe(200);
    return NetworksResponse.parse(res.json()).networks;
  };

  it('serves at least 15 African markets, each with deposit and withdrawal channels in its currency', async () => {
    const all = await channels();
    const countries = [...new Set(all.map((c) => c.country))];
    expect(countries.length).toBeGreaterThanOrEqual(15);
    for (const country of countries) {
      const own = all.filter((c) => c.country === country);
      expect(
        own.every((c) => c.currency === COUNTRY_CURRENCIES[country as keyof typeof COUNTRY_CURRENCIES]),
        country,
      ).toBe(true);
      expect(new Set(own.map((c) => c.rampType)), country).toEqual(new Set(['deposit', 'withdraw']));
      for (const c of own) expect(Number(c.min) <= Number(c.max), c.vendorId).toBe(true);
    }
    expect(new Set(all.map((c) => c.channelType))).toEqual(new Set(['momo', 'bank', 'eft', 'p2p']));
  });

  it("shows Kenya's channels with the fields of the spec, and the USD fee at the buy rate", async () => {
    const kenya = await channels('?country=ke');
    expect(kenya.map((c) => `${c.channelType}/${c.rampType}`).sort()).toEqual(['bank/deposit', 'bank/withdraw', 'momo/deposit', 'momo/withdraw']);
    const momo = kenya.find((c) => c.channelType === 'momo' && c.rampType === 'withdraw')!;
    expect(momo).toMatchObject({
      country: 'KE',
      currency: 'KES',
      status: 'active',
      feeLocal: '30.00000000',
      // 30 KES at 128.90 KES per USD
      feeUSD: '0.23000000',
      min: '10.00000000',
      max: '250000.00000000',
      widgetMax: '150000.00000000',
      estimatedSettlementTime: 60,
      settlementType: 'instant',
      apiStatus: 'active',
      widgetStatus: 'active',
    });
    expect(Object.keys(momo).sort()).toEqual(
      [
        'id',
        'vendorId',
        'rampType',
        'channelType',
        'country',
        'currency',
        'status',
        'commercialStatus',
        'feeUSD',
        'feeLocal',
        'min',
        'max',
        'successThreshold',
        'estimatedSettlementTime',
        'settlementType',
        'widgetStatus',
        'apiStatus',
        'widgetMin',
        'widgetMax',
      ].sort(),
    );
    expect((await channels('?country=KE&rampType=withdraw')).every((c) => c.rampType === 'withdraw' && c.country === 'KE')).toBe(true);
  });

  it("lists Kenya's real operators and banks with their account number type and the channels that reach them", async () => {
    const [kenya, kenyaChannels] = [await networks('?country=KE'), await channels('?country=KE')];
    const byName = new Map(kenya.map((n) => [n.name, n]));
    for (const name of ['M-Pesa', 'Airtel Money', 'Equity Bank', 'KCB Bank']) expect(byName.has(name), name).toBe(true);
    expect(byName.get('M-Pesa')).toMatchObject({
      code: 'MPESA',
      country: 'KE',
      accountNumberType: 'phone',
      status: 'active',
      tempDisabledFor: [],
      featureFlagEnabled: false,
    });
    expect(byName.get('Equity Bank')!.accountNumberType).toBe('bank');
    const ids = new Map(kenyaChannels.map((c) => [c.id, c]));
    const reach = (n: PaymentNetwork) => n.channelIds.map((id) => `${ids.get(id)?.channelType}/${ids.get(id)?.rampType}`).sort();
    expect(reach(byName.get('M-Pesa')!)).toEqual(['momo/deposit', 'momo/withdraw']);
    expect(reach(byName.get('KCB Bank')!)).toEqual(['bank/deposit', 'bank/withdraw']);
    // a network paused for a ramp says so
    expect((await networks('?country=TZ')).find((n) => n.code === 'HALOPESA')!.tempDisabledFor).toEqual(['withdraw']);
  });

  it('hides inactive channels and networks, also from the networks that list a channel', async () => {
    const kenya = await channels('?country=KE');
    // the seeded Kenyan P2P deposit channel and T-Kash are inactive
    expect(kenya.some((c) => c.channelType === 'p2p')).toBe(false);
    expect((await networks('?country=KE')).some((n) => n.code === 'TKASH')).toBe(false);
    const momoIn = kenya.find((c) => c.channelType === 'momo' && c.rampType === 'deposit')!;
    await t.database.db.updateTable('channels').set({ status: 'inactive' }).where('id', '=', momoIn.id).execute();
    try {
      expect((await channels('?country=KE')).some((c) => c.id === momoIn.id)).toBe(false);
      const mpesa = (await networks('?country=KE')).find((n) => n.code === 'MPESA')!;
      expect(mpesa.channelIds).not.toContain(momoIn.id);
      expect(mpesa.channelIds).toHaveLength(1);
      // asked by ramp, a network is listed only where an active channel of that ramp reaches it
      await t.database.db.updateTable('channels').set({ status: 'inactive' }).where('country', '=', 'KE').where('channel_type', '=', 'momo').execute();
      expect((await networks('?country=KE&rampType=deposit')).some((n) => n.code === 'MPESA')).toBe(false);
      expect((await networks('?country=KE&rampType=deposit')).some((n) => n.code === 'EQUITY')).toBe(true);
    } finally {
      await t.database.db.updateTable('channels').set({ status: 'active' }).where('country', '=', 'KE').where('channel_type', '=', 'momo').execute();
    }
  });

  it('is the same reference data for every role and partner kind, and needs a sign-in', async () => {
    const reference: Channel[] = await channels('', 'viewer@acme.test');
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'admin@kora.test']) expect(await channels('', email)).toEqual(reference);
    expect(await networks('', 'admin@kora.test')).toEqual(await networks('', 'treasury@acme.test'));
    for (const url of ['/api/v1/channels', '/api/v1/networks']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    }
  });

  it('refuses a bad narrowing with a 400 in the error shape', async () => {
    for (const query of ['?country=KEN', '?country=1', '?rampType=sideways']) {
      for (const path of ['channels', 'networks']) {
        const res = await get(`/api/v1/${path}${query}`);
        expect(res.statusCode, `${path}${query}`).toBe(400);
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
        expect(res.json()).toMatchObject({ code: 'ValidationFailed', requestId: expect.any(String) });
      }
    }
    expect(await channels('?country=FR')).toEqual([]);
  });
});
