import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, normalise, subtractDecimal } from '@portal/contract/decimal';
import { SANDBOX_PATHS, sandboxOutcome, type Payment, type PaymentQuote } from '@portal/contract/payments';
import { runPaymentStep, startPaymentWorker } from '../src/modules/payments/payment-processing.ts';
import { paymentWorkerDeps, startTestPaymentWorker } from './payment-support.ts';
import { rollupDifferences } from './analytics-support.ts';
import { ledgerSummary } from '../src/modules/ledger/ledger.repository.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { PARTNER_CACHE } from '../src/modules/partners/index.ts';
import { createBoss } from '../src/jobs/boss.ts';
import { demoAmount, makeDemoPayment } from '../src/modules/payments/demo-live.ts';
import { testConfig } from './harness.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';
import { createKey, signedCall } from './partner-api-client.ts';

const KORA = 'admin@kora.test';
const ACME_ADMIN = 'admin@acme.test';
const ACME_TREASURY = 'treasury@acme.test';
const ACME_VIEWER = 'viewer@acme.test';
const BAOBAB = 'admin@baobab.test';
const LEAN = 'admin@lean.test';

type Session = Awaited<ReturnType<typeof signIn>>;

describe.each(DATABASES)('collections and disbursements on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  let ids: {
    keMomoOut: string;
    keMomoIn: string;
    keBankOut: string;
    keP2p: string;
    mpesa: string;
    equity: string;
    ngBankIn: string;
    ngBankOut: string;
    access: string;
    tzMomoOut: string;
  };
  let worker: { stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    t = await setup(kind, { jobs: true, config: { LOGIN_RATE_LIMIT: '10000', PAYMENT_STEP_SECONDS: '0' } });
    for (const email of [KORA, ACME_ADMIN, ACME_TREASURY, ACME_VIEWER, BAOBAB, LEAN]) s[email] = await signIn(t, email);
    const channel = async (country: string, ramp: string, type: string) =>
      (
        await t.database.db
          .selectFrom('channels')
          .select('id')
          .where('country', '=', country)
          .where('ramp_type', '=', ramp)
          .where('channel_type', '=', type)
          .executeTakeFirstOrThrow()
      ).id;
    const network = async (country: string, code: string) =>
      (await t.database.db.selectFrom('payment_networks').select('id').where('country', '=', country).where('code', '=', code).executeTakeFirstOrThrow()).id;
    ids = {
      keMomoOut: await channel('KE', 'withdraw', 'momo'),
      keMomoIn: await channel('KE', 'deposit', 'momo'),
      keBankOut: await channel('KE', 'withdraw', 'bank'),
      keP2p: await channel('KE', 'deposit', 'p2p'),
      mpesa: await network('KE', 'MPESA'),
      equity: await network('KE', 'EQUITY'),
      ngBankIn: await channel('NG', 'deposit', 'bank'),
      ngBankOut: await channel('NG', 'withdraw', 'bank'),
      access: await network('NG', 'ACCESS'),
      tzMomoOut: await channel('TZ', 'withdraw', 'momo'),
    };
    worker = await startTestPaymentWorker(t, { concurrency: 2 });
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  const disbursement = (body: Record<string, unknown> = {}) => ({
    country: 'KE',
    channelId: ids.keMomoOut,
    networkId: ids.mpesa,
    accountNumber: '+254712345678',
    recipient: { name: 'Wanjiku Njoroge' },
    amount: '1000',
    sequenceId: crypto.randomUUID(),
    ...body,
  });
  /** Turns the partner's payments flag on or off, as its operator does (the partner is read afresh on each call). */
  const setPaymentsFlag = async (partnerId: string, on: boolean) => {
    const row = await t.database.db.selectFrom('partners').select('feature_flags').where('id', '=', partnerId).executeTakeFirstOrThrow();
    const flags = { ...row.feature_flags, paymentsViewEnabled: on };
    await t.database.db
      .updateTable('partners')
      .set({ feature_flags: JSON.stringify(flags) })
      .where('id', '=', partnerId)
      .execute();
    await t.app.cacheBus.invalidate(PARTNER_CACHE, partnerId);
  };
  const collection = (body: Record<string, unknown> = {}) => ({
    country: 'KE',
    channelId: ids.keMomoIn,
    accountNumber: '254722000111',
    payer: { name: 'Kofi Mensah' },
    amount: '500',
    sequenceId: crypto.randomUUID(),
    ...body,
  });
  const post = (email: string, path: string, body: unknown, headers?: Record<string, string>) =>
    s[email]!.browser.post(`/api/v1/partner/${path}`, body, { token: s[email]!.accessToken, ...(headers ? { headers } : {}) });
  const get = (email: string, url: string) => s[email]!.browser.get(`/api/v1${url}`, { token: s[email]!.accessToken });
  const balance = async (partnerId: string) => (await ledgerSummary(t.database.db, partnerId, 'USD')).balance;
  const finished = async (id: string, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = await t.database.db.selectFrom('payment_orders').select(['status', 'outcome']).where('id', '=', id).executeTakeFirstOrThrow();
      // the last state of its path ('complete' is not the end of a payment that is refunded after)
      if (row.status === row.outcome) return row.status;
      if (Date.now() > until) throw new Error(`payment ${id} still ${row.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Waits for every payment made so far to reach its final state (balances are read after). */
  const allFinished = async () => {
    const open = await t.database.db.selectFrom('payment_orders').select('id').whereRef('status', '<>', 'outcome').execute();
    await Promise.all(open.map((o) => finished(o.id)));
  };
  const eventTypes = async (id: string) =>
    (await t.database.executeSql(`select type from webhook_events where data->>'id' = $1 order by created_at, id`, [id])).rows.map(
      (r) => (r as { type: string }).type,
    );

  it('quotes a disbursement and a collection at the market rate with the channel fee', async () => {
    const out = await get(KORA, `/partner/payments/quote?kind=disbursement&country=KE&channelId=${ids.keMomoOut}&amount=1000`);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json<PaymentQuote>()).toMatchObject({
      currency: 'KES',
      amount: '1000.00',
      rate: '128.90000000',
      amountUsd: '7.75',
      feeUsd: '0.23',
      totalUsd: '7.98',
      min: '10.00',
      max: '250000.00',
    });
    const inn = await get(KORA, `/partner/payments/quote?kind=collection&country=KE&channelId=${ids.keMomoIn}&amount=1302`);
    expect(inn.json<PaymentQuote>()).toMatchObject({ rate: '130.20000000', amountUsd: '10.00', feeUsd: '0.23', totalUsd: '9.77' });
    // a deposit channel does not pay out
    expect((await get(KORA, `/partner/payments/quote?kind=disbursement&country=KE&channelId=${ids.keMomoIn}&amount=1000`)).json()).toMatchObject({
      code: 'ChannelUnavailable',
    });
  });

  it('books a disbursement with its reservation, moves it to complete with a fee row and webhook events in order', async () => {
    const before = await balance(DEMO_PARTNERS.kora.id);
    const res = await post(KORA, 'disbursement', disbursement({ amount: '1000' }));
    expect(res.statusCode, res.body).toBe(201);
    const { payment } = res.json<{ payment: Payment }>();
    expect(payment).toMatchObject({
      kind: 'disbursement',
      status: 'created',
      amountUsd: '7.75',
      feeUsd: '0.23',
      totalUsd: '7.98',
      accountType: 'phone',
      networkName: 'M-Pesa',
      source: 'portal',
    });
    expect(payment.reference).toMatch(/^PAY-/);
    expect(await finished(payment.id)).toBe('complete');
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(subtractDecimal(before, '7.98'));
    const read = await get(KORA, `/disbursements/${payment.id}`);
    expect(read.json<{ payment: Payment }>().payment.timeline.map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'complete']);
    expect(await eventTypes(payment.id)).toEqual(['PAYMENT.CREATED', 'PAYMENT.PENDING', 'PAYMENT.PROCESSING', 'PAYMENT.COMPLETE']);
    const fee = await t.database.db.selectFrom('fees').selectAll().where('transaction_id', '=', payment.id).execute();
    expect(fee.map((f) => f.amount_usd)).toEqual(['0.23000000']);
    // the tables of the portal show it as it is
    const mirror = await t.database.db.selectFrom('initiated_payments').select('status').where('id', '=', payment.id).executeTakeFirstOrThrow();
    expect(mirror.status).toBe('complete');
    // with what the Overview reads: the operator, and the completion at the time of the last step
    const row = await t.database.db
      .selectFrom('payments')
      .select(['status', 'operator', 'completed_at', 'failure_reason'])
      .where('id', '=', payment.id)
      .executeTakeFirstOrThrow();
    const completed = await t.database.db
      .selectFrom('payment_order_events')
      .select('at')
      .where('order_id', '=', payment.id)
      .where('status', '=', 'complete')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'complete', operator: 'M-Pesa', completed_at: completed.at, failure_reason: null });
  });

  it('a test amount that fails gives the whole reservation back; one that is refunded returns the amount but not the fee', async () => {
    await allFinished();
    const before = await balance(DEMO_PARTNERS.kora.id);
    const failed = (await post(KORA, 'disbursement', disbursement({ amount: '1001' }))).json<{ payment: Payment }>().payment;
    expect(await finished(failed.id)).toBe('failed');
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(before);
    const read = (await get(KORA, `/disbursements/${failed.id}`)).json<{ payment: Payment }>().payment;
    expect(read.failureReason).toMatch(/refused/);
    const row = await t.database.db.selectFrom('payments').select(['failure_reason', 'completed_at']).where('id', '=', failed.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failure_reason: read.failureReason, completed_at: null });
    // Fees lists the fee taken when the payment was made and, as a row of its own, the fee given back, each at the
    // moment and for the amount of its ledger entry
    const feeRows = await t.database.db
      .selectFrom('fees')
      .select(['amount_usd', 'created_at'])
      .where('transaction_id', '=', failed.id)
      .orderBy('created_at')
      .execute();
    const feeEntries = await t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount', 'created_at'])
      .where('reference', '=', failed.id)
      .where('kind', 'in', ['disbursement_fee', 'disbursement_fee_reversal'])
      .orderBy('created_at')
      .execute();
    expect(feeEntries.map((e) => e.kind)).toEqual(['disbursement_fee', 'disbursement_fee_reversal']);
    expect(feeRows.map((f) => [normalise(f.amount_usd, 2), new Date(f.created_at).getTime()])).toEqual(
      feeEntries.map((e) => [normalise(subtractDecimal('0', e.amount), 2), new Date(e.created_at).getTime()]),
    );
    expect(feeRows.map((f) => normalise(f.amount_usd, 2))).toEqual([failed.feeUsd, `-${failed.feeUsd}`]);
    const refunded = (await post(KORA, 'disbursement', disbursement({ amount: '1003' }))).json<{ payment: Payment }>().payment;
    expect(await finished(refunded.id)).toBe('refunded');
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(subtractDecimal(before, refunded.feeUsd));
    expect(await eventTypes(refunded.id)).toEqual(SANDBOX_PATHS.refunded.map((st) => `PAYMENT.${st.toUpperCase()}`));
  });

  it('a collection answers the payer instructions and credits the amount less the fee when complete', async () => {
    await allFinished();
    const before = await balance(DEMO_PARTNERS.kora.id);
    const momo = (await post(KORA, 'collection', collection({ amount: '1305' }))).json<{ payment: Payment }>().payment;
    expect(momo.instructions).toMatchObject({ type: 'mobile_money', phoneNumber: '254722000111', amount: '1305.00', currency: 'KES' });
    expect(await finished(momo.id)).toBe('complete');
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(addDecimal(before, momo.totalUsd));
    expect(await eventTypes(momo.id)).toEqual(['COLLECTION.CREATED', 'COLLECTION.PENDING', 'COLLECTION.PROCESSING', 'COLLECTION.COMPLETE']);
    const bank = await post(KORA, 'collection', collection({ country: 'NG', channelId: ids.ngBankIn, accountNumber: undefined, amount: '150000' }));
    expect(bank.statusCode, bank.body).toBe(201);
    expect(bank.json<{ payment: Payment }>().payment.instructions).toMatchObject({ type: 'bank_transfer', currency: 'NGN', amount: '150000.00' });
    expect(await finished(bank.json<{ payment: Payment }>().payment.id)).toBe('complete');
    expect((await get(KORA, `/collections/${momo.id}`)).json<{ payment: Payment }>().payment.timeline).toHaveLength(4);
  });

  it('refuses what the checks refuse, with stable codes, and books nothing', async () => {
    const before = await balance(DEMO_PARTNERS.kora.id);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ channelId: ids.keP2p }, 400, 'ChannelUnavailable'], // an inactive (and deposit) channel
      [{ channelId: ids.keBankOut }, 400, 'ChannelUnavailable'], // M-Pesa is not reached through the bank channel
      [{ networkId: ids.equity, accountNumber: '0123456789' }, 400, 'ChannelUnavailable'], // a bank through the momo channel
      [{ country: 'TZ', channelId: ids.tzMomoOut }, 403, 'CountryNotEnabled'],
      [{ amount: '9' }, 400, 'AmountOutOfRange'],
      [{ amount: '250001' }, 400, 'AmountOutOfRange'],
      [{ country: 'NG', channelId: ids.ngBankOut, networkId: ids.access, accountNumber: '0123456789', amount: '40000000' }, 400, 'InsufficientBalance'],
      [{ accountNumber: '12' }, 400, 'ValidationFailed'],
      [{ amount: '10.123' }, 400, 'ValidationFailed'],
      [{ amount: '-5' }, 400, 'ValidationFailed'],
      [{ recipient: { name: 'a\u0000b' } }, 400, 'ValidationFailed'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(KORA, 'disbursement', disbursement(body));
      expect([res.statusCode, res.json<{ code: string }>().code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await post(KORA, 'collection', collection({ accountNumber: undefined }))).json()).toMatchObject({ code: 'ValidationFailed' });
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(before);
  });

  it('roles: admin and treasury initiate, view reads; partners without payments are refused', async () => {
    expect((await post(ACME_TREASURY, 'disbursement', disbursement())).statusCode).toBe(201);
    const mine = (await post(ACME_ADMIN, 'collection', collection())).json<{ payment: Payment }>().payment;
    const viewerPost = await post(ACME_VIEWER, 'disbursement', disbursement());
    expect([viewerPost.statusCode, viewerPost.json<{ code: string }>().code]).toEqual([403, 'Forbidden']);
    expect((await post(ACME_VIEWER, 'collection', collection())).statusCode).toBe(403);
    expect((await get(ACME_VIEWER, `/collections/${mine.id}`)).statusCode).toBe(200);
    expect((await get(ACME_VIEWER, `/partner/payments/quote?kind=collection&country=KE&channelId=${ids.keMomoIn}&amount=500`)).statusCode).toBe(200);
    // a commercial partner that is not whitelisted
    expect((await post(BAOBAB, 'disbursement', disbursement())).json()).toMatchObject({ code: 'FeatureDisabled' });
    // a B2B partner whose payments flag is off: refused before anything of the request is looked at
    for (const body of [disbursement(), { amount: 'nonsense' }, {}]) {
      const lean = await post(LEAN, 'disbursement', body);
      expect([lean.statusCode, lean.json<{ code: string }>().code]).toEqual([403, 'FeatureDisabled']);
    }
    const leanQuote = await get(LEAN, `/partner/payments/quote?kind=disbursement&country=KE&channelId=${ids.keMomoOut}&amount=1000`);
    expect([leanQuote.statusCode, leanQuote.json<{ code: string }>().code]).toEqual([403, 'FeatureDisabled']);
    expect((await get(LEAN, '/partner/payments/quote?kind=nonsense')).json()).toMatchObject({ code: 'FeatureDisabled' });
    // a view-only user is refused before the body too (not a validation message)
    const viewerBadBody = await post(ACME_VIEWER, 'collection', { payer: 42 });
    expect([viewerBadBody.statusCode, viewerBadBody.json<{ code: string }>().code]).toEqual([403, 'Forbidden']);
    // with the flag on, the same B2B partner is asked for what it lacks: a country it serves
    await setPaymentsFlag(DEMO_PARTNERS.lean.id, true);
    try {
      expect((await post(LEAN, 'disbursement', disbursement())).json()).toMatchObject({ code: 'CountryNotEnabled' });
      expect((await post(LEAN, 'disbursement', { amount: 'nonsense' })).statusCode).toBe(400);
    } finally {
      await setPaymentsFlag(DEMO_PARTNERS.lean.id, false);
    }
  });

  it('lists the markets each partner may pay in: its own enabled countries, the ones the quote accepts; every role reads them', async () => {
    const markets = async (email: string) => {
      const res = await get(email, '/partner/payments/markets');
      expect(res.statusCode, email).toBe(200);
      return res.json<{ markets: { country: string; currency: string }[] }>().markets;
    };
    const kora = await markets(KORA);
    expect(kora.map((m) => m.country).sort()).toEqual(['GH', 'KE', 'NG', 'UG']);
    expect(kora).toContainEqual({ country: 'KE', currency: 'KES' });
    // a market listed is quoted; one not listed (TZ) is refused
    expect((await get(KORA, `/partner/payments/quote?kind=disbursement&country=KE&channelId=${ids.keMomoOut}&amount=1000`)).statusCode).toBe(200);
    expect((await get(KORA, `/partner/payments/quote?kind=disbursement&country=TZ&channelId=${ids.tzMomoOut}&amount=1000`)).json()).toMatchObject({
      code: 'CountryNotEnabled',
    });
    for (const email of [ACME_ADMIN, ACME_TREASURY, ACME_VIEWER]) expect(await markets(email)).toEqual(await markets(ACME_ADMIN));
    // a B2B partner without the payments flag has no markets to ask for; with it, its own (none yet)
    expect((await get(LEAN, '/partner/payments/markets')).json()).toMatchObject({ code: 'FeatureDisabled' });
    await setPaymentsFlag(DEMO_PARTNERS.lean.id, true);
    try {
      expect(await markets(LEAN)).toEqual([]);
    } finally {
      await setPaymentsFlag(DEMO_PARTNERS.lean.id, false);
    }
    const baobab = await get(BAOBAB, '/partner/payments/markets');
    expect([baobab.statusCode, baobab.json<{ code: string }>().code]).toEqual([403, 'FeatureDisabled']);
  });

  it('says zero or less must be above zero (not a decimals problem), and the limits with thousands separators', async () => {
    const said = async (amount: string) => (await post(KORA, 'disbursement', disbursement({ amount }))).json<{ message: string }>().message;
    expect(await said('-5')).toBe('Amount: Enter an amount above zero');
    expect(await said('0.00')).toBe('Amount: Enter an amount above zero');
    expect(await said('9')).toBe('Enter an amount of at least KES 10.00');
    expect(await said('250001')).toBe('Enter an amount of at most KES 250,000.00');
  });

  it("never shows or touches another partner's payment", async () => {
    const koras = (await post(KORA, 'disbursement', disbursement())).json<{ payment: Payment }>().payment;
    const acmes = (await post(ACME_ADMIN, 'collection', collection())).json<{ payment: Payment }>().payment;
    expect((await get(ACME_ADMIN, `/disbursements/${koras.id}`)).statusCode).toBe(404);
    expect((await get(ACME_VIEWER, `/disbursements/${koras.id}`)).statusCode).toBe(404);
    expect((await get(KORA, `/collections/${acmes.id}`)).statusCode).toBe(404);
    // the right partner, the wrong kind
    expect((await get(KORA, `/collections/${koras.id}`)).statusCode).toBe(404);
    // the same sequenceId in another partner is another payment
    const seq = crypto.randomUUID();
    const a = (await post(KORA, 'disbursement', disbursement({ sequenceId: seq }))).json<{ payment: Payment }>().payment;
    const b = (await post(ACME_ADMIN, 'disbursement', disbursement({ sequenceId: seq }))).json<{ payment: Payment }>().payment;
    expect(a.id).not.toBe(b.id);
  });

  it('the same sequenceId sent again, even at once, is one payment; with another body it is refused', async () => {
    await allFinished();
    const before = await balance(DEMO_PARTNERS.kora.id);
    const body = disbursement({ amount: '2000' });
    const replies = await Promise.all(Array.from({ length: 8 }, () => post(KORA, 'disbursement', body)));
    const created = replies.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    expect(replies.every((r) => r.statusCode === 201 || (r.statusCode === 200 && r.headers['idempotent-replayed'] === 'true'))).toBe(true);
    expect(new Set(replies.map((r) => r.json<{ payment: Payment }>().payment.id)).size).toBe(1);
    const id = created[0]!.json<{ payment: Payment }>().payment.id;
    await finished(id);
    const total = created[0]!.json<{ payment: Payment }>().payment.totalUsd;
    expect(await balance(DEMO_PARTNERS.kora.id)).toBe(subtractDecimal(before, total));
    const other = await post(KORA, 'disbursement', { ...body, amount: '2500' });
    expect([other.statusCode, other.json<{ code: string }>().code]).toEqual([409, 'SequenceIdReused']);
    const count = await t.database.db
      .selectFrom('payment_orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sequence_id', '=', body.sequenceId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('an API key with api_write creates a disbursement; the same Idempotency-Key replays it (one payment)', async () => {
    const key = await createKey(s[ACME_ADMIN]!, { name: 'Payouts', permissions: ['api_read', 'api_write'] });
    const readOnly = await createKey(s[ACME_ADMIN]!, { name: 'Reader', permissions: ['api_read'] });
    const body = disbursement({ amount: '1500' });
    const headers = { 'idempotency-key': `payout-${crypto.randomUUID()}` };
    const first = await signedCall(t.app, key, 'POST', '/api/v1/partner/disbursement', { body, headers });
    expect(first.statusCode, first.body).toBe(201);
    const again = await signedCall(t.app, key, 'POST', '/api/v1/partner/disbursement', { body, headers });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const payment = first.json<{ payment: Payment }>().payment;
    expect(again.json<{ payment: Payment }>().payment.id).toBe(payment.id);
    expect(payment.source).toBe('api');
    const read = await signedCall(t.app, readOnly, 'GET', `/api/v1/disbursements/${payment.id}`);
    expect(read.statusCode, read.body).toBe(200);
    const refused = await signedCall(t.app, readOnly, 'POST', '/api/v1/partner/disbursement', { body: disbursement() });
    expect(refused.statusCode).toBe(403);
  });

  it('parallel disbursements never spend more than the balance', async () => {
    await allFinished();
    const partnerId = DEMO_PARTNERS.kora.id;
    // about USD 300 each: the balance covers some of them
    const start = await balance(partnerId);
    const replies = await Promise.all(Array.from({ length: 24 }, () => post(KORA, 'disbursement', disbursement({ amount: '38670' }))));
    const ok = replies.filter((r) => r.statusCode === 201).map((r) => r.json<{ payment: Payment }>().payment);
    const refused = replies.filter((r) => r.statusCode === 400);
    expect(ok.length + refused.length).toBe(24);
    expect(refused.every((r) => r.json<{ code: string }>().code === 'InsufficientBalance')).toBe(true);
    const each = ok[0]!.totalUsd;
    const spent = ok.reduce((sum, p) => addDecimal(sum, p.totalUsd), '0');
    expect(compareDecimal(spent, start)).toBeLessThanOrEqual(0);
    // as many as the balance covers, not one more
    expect(compareDecimal(addDecimal(spent, each), start)).toBe(1);
    await Promise.all(ok.map((p) => finished(p.id)));
    expect(await balance(partnerId)).toBe(subtractDecimal(start, spent));
  });

  it('a burst of mixed payments leaves the ledger equal to what their final states moved', async () => {
    await allFinished();
    const partnerId = DEMO_PARTNERS.acme.id;
    const start = await balance(partnerId);
    const amounts = ['1000', '1001', '1002', '1003', '1004', '1005', '2000', '2101', '3002', '4003', '5004', '6006'];
    const replies = await Promise.all(
      amounts.flatMap((amount, i) => [
        post(i % 2 ? ACME_ADMIN : ACME_TREASURY, 'disbursement', disbursement({ amount })),
        post(ACME_ADMIN, 'collection', collection({ amount })),
      ]),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 201));
    const payments = replies.map((r) => r.json<{ payment: Payment }>().payment);
    const finals = await Promise.all(payments.map((p) => finished(p.id)));
    let expected = start;
    payments.forEach((p, i) => {
      expect(finals[i]).toBe(sandboxOutcome(p.amount));
      const outcome = finals[i];
      if (p.kind === 'disbursement') {
        if (outcome === 'complete') expected = subtractDecimal(expected, p.totalUsd);
        if (outcome === 'refunded') expected = subtractDecimal(expected, p.feeUsd);
      } else {
        if (outcome === 'complete') expected = addDecimal(expected, p.totalUsd);
        if (outcome === 'refunded') expected = subtractDecimal(expected, p.feeUsd);
      }
    });
    expect(await balance(partnerId)).toBe(expected);
    const accounts = await get(ACME_ADMIN, '/partner/accounts');
    const usd = accounts.json<{ accounts: { currency: string; available: string }[] }>().accounts.find((a) => a.currency === 'USD');
    expect(compareDecimal(usd!.available, expected)).toBe(0);
    // every state once: one timeline row and one webhook event per state of each payment's path
    for (const p of payments) {
      const path = SANDBOX_PATHS[sandboxOutcome(p.amount)];
      expect((await eventTypes(p.id)).length).toBe(path.length);
    }
    // the Overview's rollups, moved by each of those changes in parallel, are what the rows add up to
    expect(await rollupDifferences(t.database)).toEqual({ analytics_hours: 0, analytics_days: 0, analytics_durations: 0 });
  });

  it("the demo's live generator makes payments for the demo partners that the processor finishes", async () => {
    await allFinished();
    const service = t.app.services.payments;
    const kinds = [];
    // a payment the balance does not cover is refused (the generator logs it and carries on)
    for (let i = 0; i < 12; i++)
      kinds.push(await makeDemoPayment({ db: t.database.db, service, coverage: t.app.services.coverage }).catch(() => 'refused' as const));
    const made0 = kinds.filter((k) => k === 'collection' || k === 'disbursement');
    expect(made0.length).toBeGreaterThan(4);
    const made = await t.database.db.selectFrom('payment_orders').select(['id', 'partner_id']).where('created_by', '=', 'api key demo-generator').execute();
    expect(made.length).toBe(made0.length);
    expect(new Set(made.map((m) => m.partner_id)).size).toBeLessThanOrEqual(2);
    await allFinished();
  });

  // on Acme's balance: Kora's was spent down to less than one large payout by the parallel test above, and the demo
  // generator's random payments may take the rest
  it('a step that runs twice at once (a job delivered again) moves the payment once', async () => {
    await allFinished();
    const paused = await worker!.stop();
    void paused;
    worker = undefined;
    const p = (await post(ACME_ADMIN, 'disbursement', disbursement({ amount: '1001' }))).json<{ payment: Payment }>().payment;
    const before = await ledgerSummary(t.database.db, DEMO_PARTNERS.acme.id, 'USD');
    const deps = paymentWorkerDeps(t);
    for (let i = 0; i < 3; i++)
      await Promise.all([
        runPaymentStep(deps, { partnerId: DEMO_PARTNERS.acme.id, id: p.id }),
        runPaymentStep(deps, { partnerId: DEMO_PARTNERS.acme.id, id: p.id }),
      ]);
    expect((await get(ACME_ADMIN, `/disbursements/${p.id}`)).json<{ payment: Payment }>().payment.timeline.map((e) => e.status)).toEqual([
      'created',
      'pending',
      'processing',
      'failed',
    ]);
    const after = await ledgerSummary(t.database.db, DEMO_PARTNERS.acme.id, 'USD');
    // one reversal of the amount and one of the fee, whatever ran twice
    expect(after.entries - before.entries).toBe(2);
    expect(after.balance).toBe(addDecimal(before.balance, p.totalUsd));
    worker = await startTestPaymentWorker(t, { concurrency: 2 });
  });

  it('a server stopped mid-flow: a new one over the same database finishes every payment exactly once', async () => {
    await allFinished();
    await worker!.stop();
    worker = undefined;
    const before = await balance(DEMO_PARTNERS.acme.id);
    const made = await Promise.all(
      ['1000', '1001', '1002', '1003', '1004', '1007'].map((amount) => post(ACME_ADMIN, 'disbursement', disbursement({ amount }))),
    );
    expect(made.map((r) => r.statusCode)).toEqual(made.map(() => 201));
    const payments = made.map((r) => r.json<{ payment: Payment }>().payment);
    // part of the way on the first server, then it stops (its queue stops without finishing what it holds)
    const deps = paymentWorkerDeps(t);
    await runPaymentStep(deps, { partnerId: DEMO_PARTNERS.acme.id, id: payments[0]!.id });
    await runPaymentStep(deps, { partnerId: DEMO_PARTNERS.acme.id, id: payments[3]!.id });
    await t.app.boss!.stop({ graceful: false, wait: true });
    // the second server: a new queue on the same database
    const boss = createBoss(t.database);
    await boss.start();
    const second = await startPaymentWorker({ ...paymentWorkerDeps(t, { boss }), concurrency: 2 });
    try {
      const finals = await Promise.all(payments.map((p) => finished(p.id)));
      expect(finals).toEqual(payments.map((p) => sandboxOutcome(p.amount)));
      let expected = before;
      payments.forEach((p, i) => {
        if (finals[i] === 'complete') expected = subtractDecimal(expected, p.totalUsd);
        if (finals[i] === 'refunded') expected = subtractDecimal(expected, p.feeUsd);
      });
      expect(await balance(DEMO_PARTNERS.acme.id)).toBe(expected);
      for (const p of payments) expect((await eventTypes(p.id)).length).toBe(SANDBOX_PATHS[sandboxOutcome(p.amount)].length);
    } finally {
      await second.stop();
      await boss.stop({ graceful: false, wait: true });
    }
  });
});

describe("the demo's live generator", () => {
  it('is off in tests and with DEMO_LIVE=false, on in the demo otherwise', () => {
    expect(testConfig().demoLive).toBe(false);
    expect(testConfig({ NODE_ENV: 'development' }).demoLive).toBe(true);
    expect(testConfig({ NODE_ENV: 'development', DEMO_LIVE: 'false' }).demoLive).toBe(false);
    expect(testConfig({ NODE_ENV: 'development', DEMO: 'false' }).demoLive).toBe(false);
  });

  it('picks amounts in the channel range that mostly complete', () => {
    for (let i = 0; i < 200; i++) {
      const a = demoAmount('10', '250000');
      expect(Number(a)).toBeGreaterThanOrEqual(10);
      expect(Number(a)).toBeLessThanOrEqual(250000);
    }
    expect(demoAmount('10', '250000', 0).slice(-1)).toMatch(/[05-9]/);
    expect(demoAmount('10', '250000', 99).slice(-1)).toMatch(/[1-4]/);
  });
});
