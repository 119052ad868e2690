import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '@portal/contract/payments';
import { PORTAL_MODE_HEADER } from '@portal/contract/test-mode';
import { signWebhook } from '../src/modules/webhooks/webhook-signing.ts';
import { TEST_MODE_DOC } from '../src/modules/api-keys/api-docs.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { PARTNER_CACHE } from '../src/modules/partners/index.ts';
import { DATABASES, setup, signIn, startTestWebhookDelivery, type Session, type TestContext } from './harness.ts';
import { webhookReceiver, type Receiver } from './webhook-receiver.ts';
import { createKey, signedCall, type KeyPair } from './partner-api-client.ts';
import { channelOf, kenyaMomo, startTestPaymentWorker } from './payment-support.ts';

const ACME = DEMO_PARTNERS.acme.id;
const ADMIN = 'admin@acme.test';
/** What the test side is given to pay out from: the portal's test top-up is not built yet, so a ledger entry stands in for it. */
const TEST_FUNDS = '5000.00';

type Mode = 'live' | 'test';
type Operation = { method: string; path: string; operationId: string };
/** What a walk of one operation found with one key: what it read or made, to compare with the other mode's. */
type Walk = (mode: Mode) => Promise<void>;

describe.each(DATABASES)('test mode: keys made for live or test data on %s', (kind) => {
  let t: TestContext;
  let admin: Session;
  const s: Record<string, Session> = {};
  let worker: { stop(): Promise<void> } | undefined;
  let delivery: { stop(): Promise<void> } | undefined;
  let rx: Receiver;
  const keys = {} as Record<Mode, KeyPair & { mode: string; publicKey: string; partnerId: string }>;
  let twin: string;

  beforeAll(async () => {
    t = await setup(kind, { jobs: true, transactions: true, config: { LOGIN_RATE_LIMIT: '10000', PAYMENT_STEP_SECONDS: '0' } });
    admin = await signIn(t, ADMIN);
    for (const email of ['treasury@acme.test', 'viewer@acme.test', 'admin@lean.test']) s[email] = await signIn(t, email);
    s[ADMIN] = admin;
    keys.live = await createKey(admin, { name: 'Live server', permissions: ['api_read', 'api_write'], mode: 'live' });
    keys.test = await createKey(admin, { name: 'Test server', permissions: ['api_read', 'api_write'], mode: 'test' });
    twin = (await t.database.db.selectFrom('partners').select('id').where('live_partner_id', '=', ACME).executeTakeFirstOrThrow()).id;
    await t.database.db
      .insertInto('ledger_entries')
      .values({ partner_id: twin, currency: 'USD', amount: TEST_FUNDS, kind: 'opening_balance', reference: 'test-funds' })
      .execute();
    worker = await startTestPaymentWorker(t, { concurrency: 2 });
    rx = await webhookReceiver();
    delivery = await startTestWebhookDelivery(t, { schedule: [1, 1], concurrency: 4, timeoutMs: 1500 });
  });
  afterAll(async () => {
    await delivery?.stop();
    await worker?.stop();
    await t?.close();
    await rx?.close();
  });

  const call = (mode: Mode, method: 'GET' | 'POST', url: string, body?: unknown) => signedCall(t.app, keys[mode], method, `/api/v1${url}`, { body });
  const other = (mode: Mode): Mode => (mode === 'live' ? 'test' : 'live');

  it('names the mode in the key id, the secret and the public key; lists both with their mode under the account', async () => {
    expect(keys.live.apiKey).toMatch(/^ak_live_[0-9a-f]{32}$/);
    expect(keys.live.secretKey).toMatch(/^sk_live_/);
    expect(keys.live.publicKey).toMatch(/^pk_live_/);
    expect(keys.test.apiKey).toMatch(/^ak_test_[0-9a-f]{32}$/);
    expect(keys.test.secretKey).toMatch(/^sk_test_/);
    expect(keys.test.publicKey).toMatch(/^pk_test_/);
    // both are the account's: the admin lists, and the list says which is which
    expect([keys.live.partnerId, keys.test.partnerId]).toEqual([ACME, ACME]);
    const listed = (await admin.browser.get('/api/v1/partner/apikey', { token: admin.accessToken })).json<{ apiKeys: { apiKey: string; mode: string }[] }>();
    const modes = Object.fromEntries(listed.apiKeys.map((k) => [k.apiKey, k.mode]));
    expect([modes[keys.live.apiKey], modes[keys.test.apiKey]]).toEqual(['live', 'test']);
    // the test key is its own partner's: the account's test side, one per account
    const stored = await t.database.db
      .selectFrom('api_keys')
      .select(['api_key', 'partner_id'])
      .where('api_key', 'in', [keys.live.apiKey, keys.test.apiKey])
      .execute();
    expect(Object.fromEntries(stored.map((r) => [r.api_key, r.partner_id]))).toEqual({ [keys.live.apiKey]: ACME, [keys.test.apiKey]: twin });
    await createKey(admin, { name: 'Second test server', permissions: ['api_read'], mode: 'test' });
    expect(await t.database.db.selectFrom('partners').select('id').where('live_partner_id', '=', ACME).execute()).toHaveLength(1);
  });

  it('makes the test side with its live partner’s accounts, wallets and countries, and keeps it named, of its kind and flags as they change', async () => {
    // made with the live partner's currency accounts (the test funds' aside, at zero), local wallets and countries
    const setUp = async (partnerId: string) => ({
      currencies: (
        await t.database.db.selectFrom('currency_accounts').select('currency').where('partner_id', '=', partnerId).orderBy('currency').execute()
      ).map((r) => r.currency),
      wallets: (
        await t.database.db
          .selectFrom('fiat_wallets')
          .select(['currency', 'country', 'payment_enabled', 'collection_enabled'])
          .where('partner_id', '=', partnerId)
          .orderBy('currency')
          .execute()
      ).map((w) => JSON.stringify(w)),
      countries: (
        await t.database.db
          .selectFrom('partner_rates')
          .select('platform_rate_id')
          .where('partner_id', '=', partnerId)
          .where('status', '=', 'enabled')
          .orderBy('platform_rate_id')
          .execute()
      ).map((r) => r.platform_rate_id),
    });
    const [liveSetUp, testSetUp] = [await setUp(ACME), await setUp(twin)];
    expect(liveSetUp.wallets.length).toBeGreaterThan(0);
    expect(liveSetUp.countries.length).toBeGreaterThan(0);
    expect(testSetUp).toEqual(liveSetUp);
    const read = () => t.database.db.selectFrom('partners').select(['name', 'abbreviation', 'feature_flags']).where('id', '=', twin).executeTakeFirstOrThrow();
    expect(await read()).toMatchObject({ name: DEMO_PARTNERS.acme.name, abbreviation: `${DEMO_PARTNERS.acme.abbreviation}.test` });
    const live = await t.database.db.selectFrom('partners').select('feature_flags').where('id', '=', ACME).executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('partners')
      .set({ feature_flags: JSON.stringify({ ...live.feature_flags, apiKeysManagementEnabled: false }) })
      .where('id', '=', ACME)
      .execute();
    await t.app.cacheBus.invalidate(PARTNER_CACHE, ACME);
    expect((await read()).feature_flags).toMatchObject({ apiKeysManagementEnabled: false });
    await t.database.db
      .updateTable('partners')
      .set({ feature_flags: JSON.stringify(live.feature_flags) })
      .where('id', '=', ACME)
      .execute();
    expect((await read()).feature_flags).toEqual(live.feature_flags);
  });

  it('walks every operation of the partner API with a live key and a test key: neither mode reaches, makes or changes the other’s data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[] }>>;
    }>();
    const keyed: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.security?.some((s) => 'apiKeyId' in s))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })),
    );
    const momo = await kenyaMomo(t);
    const momoIn = await channelOf(t, 'KE', 'deposit', 'momo');
    const made: Record<Mode, { disbursement?: Payment; collection?: Payment }> = { live: {}, test: {} };

    const walks: Record<string, Walk> = {
      partnerProfile: async (mode) => {
        const res = await call(mode, 'GET', '/partner/profile');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ partner: { id: string } }>().partner.id).toBe(mode === 'live' ? ACME : twin);
      },
      partnerAccounts: async (mode) => {
        const res = await call(mode, 'GET', '/partner/accounts');
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<{ partner: { id: string }; accounts: { currency: string; available: string }[] }>();
        expect(body.partner.id).toBe(mode === 'live' ? ACME : twin);
        // the live key reads what the signed-in admin reads; the test key the test side's funds alone
        if (mode === 'live') expect(res.json()).toEqual((await admin.browser.get('/api/v1/partner/accounts', { token: admin.accessToken })).json());
        else expect(body.accounts.map((a) => [a.currency, Number(a.available)])).toContainEqual(['USD', Number(TEST_FUNDS)]);
      },
      // the writes first, then the reads that must see them in their own mode only
      createDisbursement: async (mode) => {
        const res = await call(mode, 'POST', '/partner/disbursement', momo('1000'));
        expect(res.statusCode, res.body).toBe(201);
        made[mode].disbursement = res.json<{ payment: Payment }>().payment;
      },
      createCollection: async (mode) => {
        const res = await call(mode, 'POST', '/partner/collection', {
          country: 'KE',
          channelId: momoIn,
          accountNumber: '254722000111',
          payer: { name: 'Kofi Mensah' },
          amount: '500',
          sequenceId: crypto.randomUUID(),
        });
        expect(res.statusCode, res.body).toBe(201);
        made[mode].collection = res.json<{ payment: Payment }>().payment;
      },
      getDisbursement: async (mode) => {
        expect((await call(mode, 'GET', `/disbursements/${made[mode].disbursement!.id}`)).statusCode).toBe(200);
        expect((await call(mode, 'GET', `/disbursements/${made[other(mode)].disbursement!.id}`)).statusCode).toBe(404);
      },
      getCollection: async (mode) => {
        expect((await call(mode, 'GET', `/collections/${made[mode].collection!.id}`)).statusCode).toBe(200);
        expect((await call(mode, 'GET', `/collections/${made[other(mode)].collection!.id}`)).statusCode).toBe(404);
      },
      searchTransactions: async (mode) => {
        const res = await call(mode, 'POST', '/transactions/search', { table: 'payments', size: 100 });
        expect(res.statusCode, res.body).toBe(200);
        const ids = res.json<{ data: { id: string }[] }>().data.map((r) => r.id);
        expect(ids).toContain(made[mode].disbursement!.id);
        expect(ids).not.toContain(made[other(mode)].disbursement!.id);
        // the test side holds only what its keys made
        if (mode === 'test') expect(ids).toEqual([made.test.disbursement!.id]);
      },
      scrollTransactions: async (mode) => {
        // the whole export, batch after batch
        const ids: string[] = [];
        let scrollId: string | null | undefined;
        do {
          const res = await call(mode, 'POST', '/transactions/scroll', { table: 'collections', scrollSize: 1000, ...(scrollId ? { scrollId } : {}) });
          expect(res.statusCode, res.body).toBe(200);
          const batch = res.json<{ scrollId: string | null; hits: { id: string }[] }>();
          ids.push(...batch.hits.map((r) => r.id));
          scrollId = batch.hits.length ? batch.scrollId : null;
        } while (scrollId);
        expect(ids).toContain(made[mode].collection!.id);
        expect(ids).not.toContain(made[other(mode)].collection!.id);
      },
      locateTransaction: async (mode) => {
        const own = await call(mode, 'POST', '/transactions/locate', { id: made[mode].collection!.id });
        expect(own.json<{ found: string[] }>().found, own.body).toContain('collections');
        const theirs = await call(mode, 'POST', '/transactions/locate', { id: made[other(mode)].collection!.id });
        expect(theirs.json<{ found: string[] }>().found, theirs.body).toEqual([]);
      },
      getTransaction: async (mode) => {
        expect((await call(mode, 'GET', `/transactions/payments/${made[mode].disbursement!.id}`)).statusCode).toBe(200);
        expect((await call(mode, 'GET', `/transactions/payments/${made[other(mode)].disbursement!.id}`)).statusCode).toBe(404);
      },
      partnerAnalytics: async (mode) => {
        const today = new Date(t.clock.now).toISOString().slice(0, 10);
        const res = await call(mode, 'GET', `/partner/analytics?from=${today}&to=${today}`);
        expect(res.statusCode, res.body).toBe(200);
        // the test side's figures are those of the test payments only: at most the one of each kind its key made
        const totals = res.json<{ totals: Record<string, { current: { count: number } }> }>().totals;
        if (mode === 'test') for (const v of Object.values(totals)) expect(v.current.count).toBeLessThanOrEqual(1);
      },
      assignDepositAddress: async (mode) => {
        const res = await call(mode, 'POST', '/partner/addresses', { currency: 'USDC', network: 'BASE' });
        expect([200, 201], res.body).toContain(res.statusCode);
        const address = res.json<{ address: { address: string; demo: boolean } }>().address;
        // a test address is made up and marked so: nothing sent to it reaches anyone
        if (mode === 'test') expect(address.demo).toBe(true);
        made[mode] = { ...made[mode], address: address.address } as (typeof made)[Mode];
      },
      depositAddresses: async (mode) => {
        const res = await call(mode, 'GET', '/partner/addresses');
        expect(res.statusCode, res.body).toBe(200);
        const addresses = res.json<{ addresses: { address: string }[] }>().addresses.map((a) => a.address);
        const mine = (made[mode] as { address?: string }).address!;
        const theirs = (made[other(mode)] as { address?: string }).address!;
        expect(addresses).toContain(mine);
        expect(addresses).not.toContain(theirs);
        // the test side has only the address its key asked for
        if (mode === 'test') expect(addresses).toEqual([mine]);
      },
      depositAddress: async (mode) => {
        const res = await call(mode, 'GET', '/partner/address?currencyNetwork=usdc-base');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ address: { address: string } }>().address.address).toBe((made[mode] as { address?: string }).address);
      },
      // reference data: the same in both modes (the test side serves the countries of its live partner)
      paymentMarkets: async (mode) => {
        const [mine, theirs] = await Promise.all([call(mode, 'GET', '/partner/payments/markets'), call(other(mode), 'GET', '/partner/payments/markets')]);
        expect(mine.statusCode, mine.body).toBe(200);
        expect(mine.json()).toEqual(theirs.json());
      },
      paymentQuote: async (mode) => {
        const url = `/partner/payments/quote?kind=disbursement&country=KE&channelId=${momo('1').channelId}&amount=1000`;
        const [mine, theirs] = await Promise.all([call(mode, 'GET', url), call(other(mode), 'GET', url)]);
        expect(mine.statusCode, mine.body).toBe(200);
        expect(mine.json<{ feeUsd: string }>().feeUsd).toBe(theirs.json<{ feeUsd: string }>().feeUsd);
      },
      channels: async (mode) => {
        const [mine, theirs] = await Promise.all([call(mode, 'GET', '/channels'), call(other(mode), 'GET', '/channels')]);
        expect(mine.statusCode, mine.body).toBe(200);
        expect(mine.json()).toEqual(theirs.json());
      },
      networks: async (mode) => {
        const [mine, theirs] = await Promise.all([call(mode, 'GET', '/networks'), call(other(mode), 'GET', '/networks')]);
        expect(mine.statusCode, mine.body).toBe(200);
        expect(mine.json()).toEqual(theirs.json());
      },
    };
    // every operation a key may call has its walk, and every walk is of an operation a key may call
    expect(keyed.map((o) => o.operationId).sort()).toEqual(Object.keys(walks).sort());
    for (const [operationId, walk] of Object.entries(walks)) {
      for (const mode of ['live', 'test'] as const) {
        try {
          await walk(mode);
        } catch (err) {
          const op = keyed.find((o) => o.operationId === operationId)!;
          throw new Error(`${op.method} ${op.path} (${operationId}) with the ${mode} key: ${(err as Error).message}`, { cause: err });
        }
      }
    }
    // the test payments ran on the test side's money only: the live balance moved by the live payments alone
    const liveEntries = await t.database.db
      .selectFrom('ledger_entries')
      .select('reference')
      .where('partner_id', '=', ACME)
      .where('reference', 'in', [made.test.disbursement!.id, made.test.collection!.id])
      .execute();
    expect(liveEntries).toEqual([]);
    const testRefs = await t.database.db.selectFrom('ledger_entries').select('reference').where('partner_id', '=', twin).execute();
    expect(testRefs.map((r) => r.reference)).toContain(made.test.disbursement!.id);
  });

  it('a test key can never sign a call that reaches live data, nor a live key test data, by naming the other partner', async () => {
    // the partner is the key's: a partner id in the query or body is refused or ignored, never followed
    const res = await call('test', 'GET', `/partner/analytics?from=2026-01-01&to=2026-01-02&partnerId=${ACME}`);
    expect(res.statusCode).toBe(400);
    const search = await call('live', 'POST', '/transactions/search', { table: 'payments', size: 5, partnerId: twin });
    expect(search.statusCode).toBe(400);
  });

  // ---- the portal's test view: a signed-in user's calls with X-Portal-Mode: test

  /** A signed-in user's call, in the test view or not. */
  const portal = (email: string, view: Mode) => {
    const { browser, accessToken: token } = s[email]!;
    const options = { token, ...(view === 'test' ? { headers: { [PORTAL_MODE_HEADER]: 'test' } } : {}) };
    return {
      get: (url: string) => browser.get(`/api/v1${url}`, options),
      post: (url: string, body: unknown) => browser.post(`/api/v1${url}`, body, options),
      put: (url: string, body: unknown) => browser.put(`/api/v1${url}`, body, options),
    };
  };

  /** Waits for every payment made so far to reach the end of its sandbox path (balances are read after). */
  const allFinished = async () => {
    const until = Date.now() + 20_000;
    while ((await t.database.db.selectFrom('payment_orders').select('id').whereRef('status', '<>', 'outcome').execute()).length > 0) {
      if (Date.now() > until) throw new Error('payments still under way');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('adds test money to the test side only, once per reference, for admins and treasury', async () => {
    await allFinished();
    const liveBefore = (await portal(ADMIN, 'live').get('/partner/balance')).json<{ available: string }>().available;
    const testBefore = (await portal(ADMIN, 'test').get('/partner/balance')).json<{ available: string }>().available;
    const reference = crypto.randomUUID();
    // from either view it is the test side's: the live view's call adds to the test balance too
    const first = await portal('treasury@acme.test', 'live').post('/partner/test-funds', { amount: '250.50', reference });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ currency: 'USD', amount: '250.50', added: true });
    const again = await portal(ADMIN, 'test').post('/partner/test-funds', { amount: '250.50', reference });
    expect(again.json()).toMatchObject({ added: false, balance: first.json<{ balance: string }>().balance });
    expect(Number((await portal(ADMIN, 'test').get('/partner/balance')).json<{ available: string }>().available)).toBe(Number(testBefore) + 250.5);
    expect((await portal(ADMIN, 'live').get('/partner/balance')).json<{ available: string }>().available).toBe(liveBefore);
    // a view user may not; a bad amount is the field's message, and nothing is added
    const viewer = await portal('viewer@acme.test', 'test').post('/partner/test-funds', { amount: '10', reference: crypto.randomUUID() });
    expect(viewer.statusCode).toBe(403);
    for (const amount of ['0', '-5', '100000.01', '1e3', 'ten']) {
      const bad = await portal(ADMIN, 'test').post('/partner/test-funds', { amount, reference: crypto.randomUUID() });
      expect(bad.statusCode, amount).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'ValidationFailed' });
    }
    expect(Number((await portal(ADMIN, 'test').get('/partner/balance')).json<{ available: string }>().available)).toBe(Number(testBefore) + 250.5);
  });

  it('shows the test side on the routes of the partner’s data and the account elsewhere, per call', async () => {
    const [live, test] = [portal(ADMIN, 'live'), portal(ADMIN, 'test')];
    // the tables: the test view holds only what test keys and the test view made
    const testRows = (await test.post('/transactions/search', { table: 'payments', size: 100 })).json<{ data: { id: string }[] }>().data;
    const liveRows = (await live.post('/transactions/search', { table: 'payments', size: 100 })).json<{ data: { id: string }[] }>().data;
    const testIds = new Set(testRows.map((r) => r.id));
    expect(testRows.length).toBeGreaterThan(0);
    expect(liveRows.some((r) => testIds.has(r.id))).toBe(false);
    const testKeyRows = (await call('test', 'POST', '/transactions/search', { table: 'payments', size: 100 })).json<{ data: { id: string }[] }>().data;
    expect(testKeyRows.map((r) => r.id).sort()).toEqual([...testIds].sort());
    // the start data: the test balances, the account's partner and user
    const start = (await test.get('/partner/start')).json<{
      profile: { partner: { id: string }; user: { email: string } };
      accounts: { partner: { id: string } };
    }>();
    expect(start.profile.partner.id).toBe(ACME);
    expect(start.profile.user.email).toBe(ADMIN);
    expect(start.accounts.partner.id).toBe(twin);
    expect((await live.get('/partner/start')).json<{ accounts: { partner: { id: string } } }>().accounts.partner.id).toBe(ACME);
    // the account's own screens answer the same in both views
    for (const url of ['/partner/users', '/partner/profile', '/security-history', '/partner/apikey']) {
      const [a, b] = [await live.get(url), await test.get(url)];
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.json(), url).toEqual(a.json());
    }
    // a report asked for in the test view is the test side's: listed there only
    const today = new Date(t.clock.now).toISOString().slice(0, 10);
    const report = await test.post('/report-jobs/create', { dataSource: 'payments', startDate: today, endDate: today });
    expect(report.statusCode, report.body).toBe(200);
    const jobId = report.json<{ job: { id: string } }>().job.id;
    const jobs = async (view: ReturnType<typeof portal>) => JSON.stringify((await view.post('/report-jobs', { size: 100 })).json());
    expect(await jobs(test)).toContain(jobId);
    expect(await jobs(live)).not.toContain(jobId);
    expect((await live.get(`/report-jobs/${jobId}`)).statusCode).toBe(404);
    // another partner's user asking for the test view reaches its own test side, never Acme's
    const lean = (await portal('admin@lean.test', 'test').post('/transactions/search', { table: 'payments', size: 100 })).json<{ data: { id: string }[] }>()
      .data;
    expect(lean.some((r) => testIds.has(r.id))).toBe(false);
  });

  it('keeps test webhook endpoints apart: a test payment is delivered, signed, to the test endpoint only', async () => {
    const codeFor = async (purpose: unknown) => {
      t.clock.now += 150_000;
      expect((await portal(ADMIN, 'live').put('/user/otp', purpose)).statusCode).toBe(200);
      return /verification code is (\d{6})/.exec(t.mailer.sent.filter((m) => m.to === ADMIN).at(-1)!.text)![1]!;
    };
    const create = async (view: Mode, path: string) => {
      const url = `${rx.url}/${path}`;
      const res = await portal(ADMIN, view).post('/partner/webhook', {
        url,
        events: ['PAYMENT.COMPLETE'],
        otp: await codeFor({ action: 'webhook.create', target: { url } }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ webhook: { id: string }; secret: string }>();
    };
    const testHook = await create('test', 'test-side');
    const liveHook = await create('live', 'live-side');
    const ids = async (view: Mode) => (await portal(ADMIN, view).get('/partner/webhook')).json<{ webhooks: { id: string }[] }>().webhooks.map((w) => w.id);
    expect(await ids('test')).toEqual([testHook.webhook.id]);
    expect(await ids('live')).toContain(liveHook.webhook.id);
    expect(await ids('live')).not.toContain(testHook.webhook.id);
    // a test disbursement that completes (amount ending in 0) is told to the test endpoint, signed with its secret
    const momo = await kenyaMomo(t);
    const paid = await call('test', 'POST', '/partner/disbursement', momo('1200'));
    expect(paid.statusCode, paid.body).toBe(201);
    const id = paid.json<{ payment: Payment }>().payment.id;
    const told = () => rx.received.find((r) => r.path === '/test-side' && r.body.includes(id));
    await expect.poll(told, { timeout: 20_000 }).toBeDefined();
    const got = told()!;
    expect(got.signature.split(' ')).toContain(signWebhook(testHook.secret, got.id, Number(got.timestamp), got.body));
    expect(rx.received.some((r) => r.path === '/live-side' && r.body.includes(id))).toBe(false);
    // its delivery is listed in the test view only
    const activity = async (view: Mode) => JSON.stringify((await portal(ADMIN, view).get('/partner/activity?type=webhook&size=100')).json());
    expect(await activity('test')).toContain(id);
    expect(await activity('live')).not.toContain(id);
  });

  it('documents the mode on every operation that serves the partner’s data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { operationId: string; description?: string; security?: Record<string, unknown>[] }>>;
    }>();
    const documented = Object.values(doc.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => op.description?.includes(TEST_MODE_DOC))
      .map((op) => op.operationId)
      .sort();
    // the partner API's operations but the reference data (the same in both modes), and the portal's views of the data
    expect(documented).toEqual(
      [
        'assignDepositAddress',
        'balanceOverview',
        'balanceStatementCsv',
        'balanceStatementPdf',
        'createCollection',
        'createDisbursement',
        'createReportJob',
        'createWebhook',
        'deleteWebhook',
        'depositAddress',
        'depositAddresses',
        'downloadReport',
        'getCollection',
        'getDisbursement',
        'getReportJob',
        'getTransaction',
        'listReportJobs',
        'listWebhooks',
        'locateTransaction',
        'partnerAccounts',
        'partnerAnalytics',
        'paymentMarkets',
        'paymentQuote',
        'resendWebhookDelivery',
        'rollWebhookSecret',
        'scrollTransactions',
        'searchTransactions',
        'sendTestWebhook',
        'start',
        'updateWebhook',
        'webhookActivity',
      ].sort(),
    );
  });
});
