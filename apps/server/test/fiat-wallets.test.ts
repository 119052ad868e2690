import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIAT_WALLET_MESSAGES, type FiatWallet } from '@portal/contract/fiat-wallets';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { PARTNER_CACHE } from '../src/modules/partners/partner-cache.ts';
import { createFiatWalletsRepository } from '../src/modules/fiat-wallets/fiat-wallets.repository.ts';
import { createFiatWalletsService } from '../src/modules/fiat-wallets/fiat-wallets.service.ts';
import { DATABASES, setupSignedIn, type Session, type TestContext } from './harness.ts';

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('fiat wallets on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test']));
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string) => ({
    list: () => s[email]!.browser.get('/api/v1/partner/fiat-wallets', { token: s[email]!.accessToken }),
    update: (body: unknown) => s[email]!.browser.put('/api/v1/partner/fiat-wallet', body, { token: s[email]!.accessToken }),
  });
  const wallets = async (email: string) => {
    const res = await as(email).list();
    expect(res.statusCode).toBe(200);
    return res.json<{ fiatWallets: FiatWallet[] }>().fiatWallets;
  };
  const acmeWallet = async (currency: string) => (await wallets('admin@acme.test')).find((w) => w.currency === currency)!;
  const stored = (partnerId: string, currency: string) =>
    t.database.db
      .selectFrom('fiat_wallets')
      .select(['payment_enabled', 'collection_enabled'])
      .where('partner_id', '=', partnerId)
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();

  it('lists the default USD/US wallet (id 1, both on) first, then the stored ones, with ledger balances, for every role', async () => {
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
      const list = await wallets(email);
      expect(
        list.map((w) => [w.id === 1, w.currency, w.country, w.paymentEnabled, w.collectionEnabled, Number(w.balance)]),
        email,
      ).toEqual([
        [true, 'USD', 'US', true, true, 25000],
        [false, 'NGN', 'NG', true, true, 12500000],
        [false, 'KES', 'KE', true, false, 850000],
      ]);
      expect(list.every((w) => typeof w.balance === 'string' && /^\d+(\.\d+)?$/.test(w.balance))).toBe(true);
    }
  });

  it('follows the ledger: a new entry moves the balance of its wallet only', async () => {
    await t.database.db
      .insertInto('ledger_entries')
      .values({ partner_id: ACME, currency: 'NGN', amount: '-2500.5', kind: 'test', reference: `fiat-${kind}` })
      .execute();
    const list = await wallets('viewer@acme.test');
    expect(list.find((w) => w.currency === 'NGN')!.balance).toMatch(/^12497499\.50*$/);
    expect(Number(list.find((w) => w.currency === 'KES')!.balance)).toBe(850000);
  });

  it('has none for a partner without fiat wallets, which cannot change any', async () => {
    expect(await wallets('admin@lean.test')).toEqual([]);
    expect(await wallets('admin@kora.test')).toEqual([]);
    const ngn = await acmeWallet('NGN');
    const res = await as('admin@lean.test').update({ id: ngn.id, paymentEnabled: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FiatWalletsDisabled', message: FIAT_WALLET_MESSAGES.disabled });
  });

  it('lets admin and treasury switch payments and collections, and answers the wallet as it now is', async () => {
    const kes = await acmeWallet('KES');
    const on = await as('treasury@acme.test').update({ id: kes.id, collectionEnabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json<{ fiatWallet: FiatWallet }>().fiatWallet).toMatchObject({ id: kes.id, currency: 'KES', paymentEnabled: true, collectionEnabled: true });
    expect(await stored(ACME, 'KES')).toEqual({ payment_enabled: true, collection_enabled: true });
    const both = await as('admin@acme.test').update({ id: kes.id, paymentEnabled: false, collectionEnabled: false });
    expect(both.json<{ fiatWallet: FiatWallet }>().fiatWallet).toMatchObject({ paymentEnabled: false, collectionEnabled: false });
    expect(await acmeWallet('KES')).toMatchObject({ paymentEnabled: false, collectionEnabled: false });
    // each change is in the audit log with what it was and what it became
    const events = await t.database.db
      .selectFrom('audit_events')
      .select(['actor', 'action', 'target', 'details'])
      .where('partner_id', '=', ACME)
      .where('action', '=', 'fiat_wallet.updated')
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => [e.actor, e.target, e.details])).toEqual([
      ['treasury@acme.test', 'KES', { collection_enabled: { from: false, to: true } }],
      ['admin@acme.test', 'KES', { payment_enabled: { from: true, to: false }, collection_enabled: { from: true, to: false } }],
    ]);
    // the same values again change nothing and write nothing
    expect((await as('admin@acme.test').update({ id: kes.id, paymentEnabled: false })).statusCode).toBe(200);
    expect(await t.database.db.selectFrom('audit_events').select('id').where('action', '=', 'fiat_wallet.updated').execute()).toHaveLength(2);
  });

  it('refuses view users', async () => {
    const ngn = await acmeWallet('NGN');
    const res = await as('viewer@acme.test').update({ id: ngn.id, paymentEnabled: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden' });
    expect(await stored(ACME, 'NGN')).toEqual({ payment_enabled: true, collection_enabled: true });
  });

  it('keeps the default USD wallet on', async () => {
    const res = await as('admin@acme.test').update({ id: 1, paymentEnabled: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: FIAT_WALLET_MESSAGES.defaultFixed });
    expect(await acmeWallet('USD')).toMatchObject({ id: 1, paymentEnabled: true, collectionEnabled: true });
  });

  it('refuses bad input with a 400 naming the field, and an unknown wallet with a 404', async () => {
    for (const body of [{ id: 2 }, { id: 'two', paymentEnabled: true }, { id: -1, paymentEnabled: true }, { id: 2, paymentEnabled: 'yes' }, {}]) {
      const res = await as('admin@acme.test').update(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationFailed' });
    }
    const res = await as('admin@acme.test').update({ id: 999_999, paymentEnabled: false });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NotFound', message: FIAT_WALLET_MESSAGES.notFound });
  });

  it('never shows or changes another partner’s wallet', async () => {
    // Lean gets fiat wallets and one of its own: it sees USD and its own, and Acme's ids are unknown to it
    await t.database.db.updateTable('partners').set({ fiat_wallets_enabled: true }).where('id', '=', LEAN).execute();
    await t.app.cacheBus.invalidate(PARTNER_CACHE, LEAN);
    await createFiatWalletsService({ repo: createFiatWalletsRepository(t.database.db), ledger: t.app.services.ledger, now: () => t.clock.now }).addForOperator(
      LEAN,
      {
        currency: 'ngn',
        country: 'ng',
      },
    );
    const lean = await wallets('admin@lean.test');
    expect(lean.map((w) => [w.currency, Number(w.balance)])).toEqual([
      ['USD', 400],
      ['NGN', 0],
    ]);
    const acmeNgn = await acmeWallet('NGN');
    expect(lean.some((w) => w.id === acmeNgn.id)).toBe(false);
    const res = await as('admin@lean.test').update({ id: acmeNgn.id, paymentEnabled: false, collectionEnabled: false });
    expect(res.statusCode).toBe(404);
    expect(await stored(ACME, 'NGN')).toEqual({ payment_enabled: true, collection_enabled: true });
    // and Acme cannot change Lean's
    const leanNgn = lean.find((w) => w.currency === 'NGN')!;
    expect((await as('admin@acme.test').update({ id: leanNgn.id, paymentEnabled: false })).statusCode).toBe(404);
    expect(await stored(LEAN, 'NGN')).toEqual({ payment_enabled: true, collection_enabled: true });
  });

  it('asks for a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/fiat-wallets' })).statusCode).toBe(401);
  });

  it('the operator adds a wallet once per currency, never a USD one', async () => {
    const service = createFiatWalletsService({ repo: createFiatWalletsRepository(t.database.db), ledger: t.app.services.ledger, now: () => t.clock.now });
    await expect(service.addForOperator(ACME, { currency: 'NGN', country: 'NG' })).rejects.toThrow(/has a NGN wallet already/);
    await expect(service.addForOperator(ACME, { currency: 'USD', country: 'US' })).rejects.toThrow(/other than USD/);
    const ghs = await service.addForOperator(ACME, { currency: 'GHS', country: 'GH' });
    expect((await wallets('admin@acme.test')).at(-1)).toMatchObject({
      id: ghs.id,
      currency: 'GHS',
      country: 'GH',
      paymentEnabled: true,
      collectionEnabled: true,
      // its new account's kept balance, written as every balance is (eight decimals)
      balance: '0.00000000',
    });
  });
});
