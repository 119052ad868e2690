import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STATEMENT_MESSAGES, STATEMENT_PDF_MAX_ENTRIES, type BalanceOverview } from '@portal/contract/balance';
import { normalise, subtractDecimal } from '@portal/contract/decimal';
import { WITHDRAWAL_MESSAGES, type Settlement, type SettlementFeeResponse } from '@portal/contract/settlements';
import type { SettlementWallet } from '@portal/contract/wallets';
import { simulatedPayer } from '../src/modules/withdrawals/payer.ts';
import { ledgerSummary } from '../src/modules/ledger/ledger.repository.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { DATABASES, type TestContext } from './harness.ts';
import { ACME_TRAVEL_RULE, withdrawalBody, withdrawalSetup, type TestPayer, type walletActors } from './wallet-support.ts';
import { pdfText } from './pdf-text.ts';
import { rollupDifferences } from './analytics-support.ts';

const ADMIN = 'admin@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const KORA = 'admin@kora.test';
const ACME = DEMO_PARTNERS.acme.id;

/**
 * The payer of these tests: the simulated one, except that amounts ending in .13 cannot be sent and amounts ending
 * in .17 are refused by the chain after sending (the failed paths).
 */
const payer: TestPayer = (amountOf) => ({
  async send(p) {
    return p.amount.endsWith('.13000000') || (await amountOf(p.settlementId)).endsWith('.13')
      ? { ok: false, reason: 'The network refused the transaction' }
      : simulatedPayer.send(p);
  },
  async confirm(p) {
    return (await amountOf(p.settlementId)).endsWith('.17') ? { ok: false, reason: 'The transaction was dropped by the network' } : { ok: true };
  },
});

/** The partner's USD balance: the sum of its ledger entries. */
const CONCURRENT = Number(process.env.WITHDRAWAL_TEST_REQUESTS ?? 500);

describe.each(DATABASES)('withdrawals on %s', (kind) => {
  let t: TestContext;
  let w: Awaited<ReturnType<typeof walletActors>>;
  let wallet: SettlementWallet;
  beforeAll(async () => {
    ({ t, w, wallet } = await withdrawalSetup(kind, {
      payer,
      users: [ADMIN, TREASURY, VIEWER, KORA],
      processingSeconds: 1,
      config: {
        WITHDRAWAL_MAX_USD: '30000.00',
        // the account lock is proved at full concurrency (500 at once below); the fair share, which would queue all but 5
        // of one partner's withdrawals, is proved in fair-share.test.ts
        FAIR_SHARE_PER_PARTNER: '0',
      },
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const balance = async () => (await ledgerSummary(t.database.db, ACME, 'USD')).balance;
  const withdraw = (email: string, body: Record<string, unknown>) =>
    w.as(email).browser.post('/api/v1/partner/settlement/withdrawal', withdrawalBody(wallet.address, body), w.opts(email));
  const statusOf = async (id: string) => (await t.database.db.selectFrom('settlements').select('status').where('id', '=', id).executeTakeFirst())?.status;

  /** The webhook events recorded for a settlement, oldest first. */
  const settlementEvents = async (id: string) =>
    (await t.database.executeSql(`select type from webhook_events where data->>'id' = $1 order by created_at, type`, [id])).rows.map(
      (r) => (r as { type: string }).type,
    );

  it('quotes the network fee, the rate and what arrives; serves the travel-rule configs', async () => {
    const fee = await w.as(ADMIN).browser.get('/api/v1/partner/settlement/fee?amount=100&cryptoCurrency=USDT&cryptoNetwork=TRC20', w.opts(ADMIN));
    expect(fee.statusCode, fee.body).toBe(200);
    expect(fee.json<SettlementFeeResponse>()).toMatchObject({
      feeAmount: '1.00000000',
      feeCurrency: 'USDT',
      rate: '1.0000',
      cryptoAmount: '100.00000000',
      receiveAmount: '99.00000000',
    });
    // the spec's form: by cryptoAmount
    const byCrypto = await w.as(ADMIN).browser.get('/api/v1/partner/settlement/fee?cryptoAmount=50&cryptoCurrency=USDC&cryptoNetwork=ERC20', w.opts(ADMIN));
    expect(byCrypto.json()).toMatchObject({ feeAmount: '4.00000000', receiveAmount: '46.00000000' });
    expect((await w.as(ADMIN).browser.get('/api/v1/partner/settlement/fee?cryptoCurrency=USDC&cryptoNetwork=ERC20', w.opts(ADMIN))).statusCode).toBe(400);
    expect((await w.as(ADMIN).browser.get('/api/v1/partner/settlement/fee?amount=100&cryptoCurrency=BTC&cryptoNetwork=BTC', w.opts(ADMIN))).statusCode).toBe(
      400,
    );
    const rules = await w.as(VIEWER).browser.get('/api/v1/partner/travel-rule', w.opts(VIEWER));
    expect(rules.json()).toMatchObject({ configs: [{ status: 'ACTIVE', minAmount: '1000.00', dataFields: ['name', 'businessRegistrationNumber'] }] });
  });

  it('books a withdrawal in one go (settlement pending, ledger debit), answers a repeat with the first result, refuses the id with another body; the job completes it', async () => {
    const before = await balance();
    const sequenceId = crypto.randomUUID();
    const first = await withdraw(ADMIN, { amount: '250.50', sequenceId });
    expect(first.statusCode, first.body).toBe(201);
    const settlement = first.json<{ settlement: Settlement }>().settlement;
    expect(settlement).toMatchObject({
      status: 'pending',
      type: 'payout',
      amount: '250.50',
      cryptoCurrency: 'USDT',
      cryptoNetwork: 'TRC20',
      feeAmount: '1.00000000',
      cryptoAmount: '249.50000000',
      walletAddress: wallet.address,
      sequenceId,
    });
    expect(Number(await balance())).toBeCloseTo(Number(before) - 250.5, 8);

    const again = await withdraw(ADMIN, { amount: '250.50', sequenceId });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ settlement: Settlement }>().settlement.id).toBe(settlement.id);
    const other = await withdraw(ADMIN, { amount: '250.51', sequenceId });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'SequenceIdReused', message: WITHDRAWAL_MESSAGES.sequenceReused });
    expect(Number(await balance())).toBeCloseTo(Number(before) - 250.5, 8);

    await expect.poll(() => statusOf(settlement.id), { timeout: 20_000, interval: 250 }).toBe('complete');
    const tab = await w.as(ADMIN).browser.post('/api/v1/transactions/search', { table: 'settlements', idFilter: settlement.id }, w.opts(ADMIN));
    expect(tab.json<{ data: Record<string, unknown>[] }>().data).toEqual([
      expect.objectContaining({ id: settlement.id, status: 'complete', type: 'payout', cryptoCurrency: 'USDT', externalWalletAddress: wallet.address }),
    ]);
    const audit = await t.database.db.selectFrom('audit_events').select('action').where('target', '=', settlement.id).orderBy('created_at').execute();
    expect(audit.map((a) => a.action)).toEqual(['settlement.pending', 'settlement.processing', 'settlement.complete']);
    // each state change put its webhook event in the outbox, in the change's transaction, once
    expect(await settlementEvents(settlement.id)).toEqual(['SETTLEMENT.PENDING', 'SETTLEMENT.PROCESSING', 'SETTLEMENT.COMPLETE']);
  });

  it('checks the amount on the server: the balance, the minimum, the limit, the travel rule', async () => {
    const now = await balance();
    const over = await withdraw(TREASURY, {
      amount: (Number(now) + 1).toFixed(2),
      travelRuleInfo: ACME_TRAVEL_RULE,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ code: string; message: string }>()).toMatchObject({ code: 'InsufficientBalance' });
    expect(over.json<{ message: string }>().message).toMatch(/^You can withdraw at most USD [\d,]+\.\d{2}$/);
    expect((await withdraw(ADMIN, { amount: '9.99' })).json()).toMatchObject({ message: WITHDRAWAL_MESSAGES.amountAtLeast });
    expect((await withdraw(ADMIN, { amount: '30000.01', travelRuleInfo: { name: 'A', businessRegistrationNumber: 'B' } })).json()).toMatchObject({
      message: 'You can withdraw at most USD 30,000.00',
    });
    expect((await withdraw(ADMIN, { amount: '100.005' })).statusCode).toBe(400);
    const noRule = await withdraw(ADMIN, { amount: '1000.00' });
    expect(noRule.json()).toMatchObject({ code: 'TravelRuleRequired', message: WITHDRAWAL_MESSAGES.travelRuleRequired });
    expect((await withdraw(ADMIN, { amount: '1000.00', travelRuleInfo: ACME_TRAVEL_RULE })).statusCode).toBe(201);
    expect((await withdraw(ADMIN, { amount: '100.00', fiatWallet: 'NGN' })).statusCode).toBe(400);
    expect((await withdraw(ADMIN, { cryptoCurrency: 'USDC' })).statusCode).toBe(400);
    expect(Number(await balance())).toBeCloseTo(Number(now) - 1000, 8);
  });

  it('sends only to an enabled wallet of the caller, and only for admin and treasury users', async () => {
    const before = await balance();
    expect((await withdraw(VIEWER, {})).statusCode).toBe(403);
    // another partner cannot withdraw to this partner's wallet (nor see its sequenceIds)
    const kora = await withdraw(KORA, {});
    expect(kora.statusCode).toBe(400);
    expect(kora.json()).toMatchObject({ code: 'WalletNotEnabled' });
    const pending = (await import('../src/lib/deposit-addresses.ts')).generateDemoAddress('TRC20').address;
    expect((await w.api.create(ADMIN, { address: pending })).statusCode).toBe(201);
    expect((await withdraw(TREASURY, { walletAddress: pending })).json()).toMatchObject({
      code: 'WalletNotEnabled',
      message: WITHDRAWAL_MESSAGES.walletNotEnabled,
    });
    expect((await withdraw(TREASURY, { walletAddress: 'TThisIsNotAnAddress' })).json()).toMatchObject({ code: 'InvalidWalletAddress' });
    expect(await balance()).toBe(before);
  });

  it('fails a withdrawal that cannot be sent or does not settle, and gives the amount back (a reversing entry)', async () => {
    const before = await balance();
    const cannotSend = (await withdraw(ADMIN, { amount: '40.13' })).json<{ settlement: Settlement }>().settlement;
    const dropped = (await withdraw(ADMIN, { amount: '40.17' })).json<{ settlement: Settlement }>().settlement;
    await expect.poll(() => statusOf(cannotSend.id), { timeout: 20_000, interval: 250 }).toBe('failed');
    await expect.poll(() => statusOf(dropped.id), { timeout: 20_000, interval: 250 }).toBe('failed');
    expect(await balance()).toBe(before);
    const entries = await t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount'])
      .where('reference', 'in', [cannotSend.id, dropped.id])
      .orderBy('kind')
      .orderBy('amount')
      .execute();
    expect(entries.map((e) => [e.kind, Number(e.amount)])).toEqual([
      ['settlement', -40.17],
      ['settlement', -40.13],
      ['settlement_reversal', 40.13],
      ['settlement_reversal', 40.17],
    ]);
    const dropAudit = await t.database.db.selectFrom('audit_events').select('action').where('target', '=', dropped.id).orderBy('created_at').execute();
    expect(dropAudit.map((a) => a.action)).toEqual(['settlement.pending', 'settlement.processing', 'settlement.failed']);
    expect(await settlementEvents(dropped.id)).toEqual(['SETTLEMENT.PENDING', 'SETTLEMENT.PROCESSING', 'SETTLEMENT.FAILED']);
  });

  it('fails a withdrawal whose wallet is disabled before it is sent', async () => {
    const before = await balance();
    const other = await w.enabledWallet(TREASURY, ADMIN, 'TRC20', ['USDT']);
    const res = await withdraw(ADMIN, { walletAddress: other.address, amount: '60.00' });
    expect(res.statusCode, res.body).toBe(201);
    // disabled within the second before the job sends it
    expect((await w.api.update(ADMIN, { address: other.address, status: 'disabled' })).statusCode).toBe(200);
    const id = res.json<{ settlement: Settlement }>().settlement.id;
    await expect.poll(() => statusOf(id), { timeout: 20_000, interval: 250 }).toBe('failed');
    expect(await balance()).toBe(before);
    const request = await t.database.db.selectFrom('settlement_requests').select('failure_reason').where('settlement_id', '=', id).executeTakeFirstOrThrow();
    expect(request.failure_reason).toMatch(/disabled or deleted/);
    // sent again now that the wallet is disabled, the request still answers its first result and books nothing
    const again = await withdraw(ADMIN, {
      walletAddress: other.address,
      amount: '60.00',
      sequenceId: res.json<{ settlement: Settlement }>().settlement.sequenceId,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ settlement: Settlement }>().settlement).toMatchObject({ id, status: 'failed' });
    expect(await balance()).toBe(before);
  });

  it(`never overspends: ${CONCURRENT} concurrent requests (200 sequenceIds, the rest repeats) against a balance that covers some`, async () => {
    const start = await summary();
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID());
    // an amount such that the balance covers about 70 of the 200 withdrawals
    const amount = (Math.floor((Number(start.balance) / 70) * 100) / 100).toFixed(2);
    const covered = Math.floor(Number(start.balance) / Number(amount));
    expect(covered).toBeLessThan(200);
    const order = Array.from({ length: CONCURRENT }, (_, i) => ids[i % ids.length]!).sort(() => Math.random() - 0.5);
    const send = (sequenceId: string) =>
      withdraw(i(sequenceId), {
        amount,
        sequenceId,
        ...(Number(amount) >= 1000 ? { travelRuleInfo: ACME_TRAVEL_RULE } : {}),
      });
    const results = await Promise.all(order.map(send));
    // on a busy machine a request may wait past the deadline or for a connection, and is answered 503 with Retry-After
    // (booked or not: its work goes on by itself); the client sends it again with its sequenceId, as the portal does,
    // until it has its answer: the first one's, or its own
    let resent = 0;
    for (let n = 0; n < results.length; n++) {
      for (let attempt = 0; results[n]!.statusCode === 503 && attempt < 20; attempt++) {
        expect(results[n]!.headers['retry-after'], results[n]!.body).toBeDefined();
        await new Promise((resolve) => setTimeout(resolve, 250));
        results[n] = await send(order[n]!);
        resent += 1;
      }
    }
    if (resent) console.log(`${kind}: ${resent} requests answered 503 under load and sent again`);

    const byId = new Map<string, Set<string>>();
    let created = 0;
    for (const [n, res] of results.entries()) {
      if (res.statusCode === 201) created += 1;
      if (res.statusCode === 201 || res.statusCode === 200) {
        const set = byId.get(order[n]!) ?? new Set();
        set.add(res.json<{ settlement: Settlement }>().settlement.id);
        byId.set(order[n]!, set);
      } else {
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'InsufficientBalance' });
      }
    }
    // each sequenceId has at most one settlement, booked once, however many times it was sent
    expect([...byId.values()].every((s) => s.size === 1)).toBe(true);
    expect(created).toBe(byId.size);
    expect(created).toBe(covered);
    const end = await summary();
    expect(end.debits - start.debits).toBe(created);
    expect(end.distinct_refs).toBe(end.debits);
    expect(Number(end.balance)).toBeGreaterThanOrEqual(0);
    // the balance is the sum of the entries: the opening balance less exactly the booked withdrawals
    expect(Math.round((Number(start.balance) - Number(end.balance)) * 100)).toBe(Math.round(Number(amount) * 100) * created);
    const booked = await t.database.db
      .selectFrom('settlement_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sequence_id', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(booked.n)).toBe(created);
    // the queued jobs settle every one of them (and the file closes on a quiet queue)
    const settlementIds = [...byId.values()].map((set) => [...set][0]!);
    await expect
      .poll(
        async () =>
          (await t.database.db.selectFrom('settlements').select('id').where('id', 'in', settlementIds).where('status', '=', 'complete').execute()).length,
        { timeout: 60_000, interval: 500 },
      )
      .toBe(created);
    // the Overview's rollups, moved by each of those withdrawals and their completions in parallel, add up to the rows
    expect(await rollupDifferences(t.database)).toEqual({ analytics_hours: 0, analytics_days: 0, analytics_durations: 0 });
  }, 120_000);

  it('books the last of the balance once: 40 different withdrawals at the same moment for a balance that covers 3', async () => {
    const start = await summary();
    // a balance of exactly USD 3,000.00 for withdrawals of USD 900.00
    await t.database.db
      .insertInto('ledger_entries')
      .values({ partner_id: ACME, currency: 'USD', amount: (3000 - Number(start.balance)).toFixed(8), kind: 'test_funding', reference: crypto.randomUUID() })
      .execute();
    expect((await summary()).balance).toBe('3000.00000000');
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => withdraw(n % 2 ? ADMIN : TREASURY, { amount: '900.00' })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400).map((r) => r.json<{ code: string }>().code)).toEqual(Array(37).fill('InsufficientBalance'));
    expect((await summary()).balance).toBe('300.00000000');
  });

  const summary = () => ledgerSummary(t.database.db, ACME, 'USD');
  /** admin and treasury share the requests */
  const i = (sequenceId: string) => (sequenceId.charCodeAt(0) % 2 === 0 ? ADMIN : TREASURY);

  it('GET partner/balance: available, the withdrawal reserved while under way, the last movements linked to it; every role reads its own partner only', async () => {
    const overview = async (email: string) => {
      const res = await w.as(email).browser.get('/api/v1/partner/balance', w.opts(email));
      expect(res.statusCode).toBe(200);
      return res.json<BalanceOverview>();
    };
    // the test clock stands still: a moment later, so that this withdrawal is the newest movement (entries of one
    // instant have no order between them)
    t.clock.now += 1000;
    const booked = await withdraw(TREASURY, { amount: '123.45' });
    expect(booked.statusCode).toBe(201);
    const id = booked.json<{ settlement: Settlement }>().settlement.id;
    // read right away: the processing job moves it on only after a second, and pending and processing both count
    const [admin, treasury, viewer] = await Promise.all([overview(ADMIN), overview(TREASURY), overview(VIEWER)]);
    expect(treasury).toEqual(admin);
    expect(viewer).toEqual(admin);
    expect(admin.currency).toBe('USD');
    const ledger = await balance();
    expect(Number(admin.available)).toBeCloseTo(Number(ledger), 2);
    expect(Number(admin.pending.withdrawals)).toBeGreaterThanOrEqual(123.45);
    expect(admin.pending.total).toBe((Number(admin.pending.withdrawals) + Number(admin.pending.disbursements)).toFixed(2));
    expect(admin.recent.length).toBeGreaterThan(0);
    expect(admin.recent.length).toBeLessThanOrEqual(10);
    expect(admin.recent.find((m) => m.reference === id)).toMatchObject({
      kind: 'settlement',
      reference: id,
      amount: '-123.45',
      currency: 'USD',
      description: 'Withdrawal to a settlement wallet',
    });
    // newest first
    const times = admin.recent.map((m) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    // another partner sees its own balance, never this withdrawal
    const kora = await overview(KORA);
    expect(kora.recent.some((m) => m.reference === id)).toBe(false);
    expect(kora.available).toBe(normalise((await ledgerSummary(t.database.db, DEMO_PARTNERS.kora.id, 'USD')).balance, 2));
    // without a session: refused
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/balance' })).statusCode).toBe(401);
    await vi.waitFor(async () => expect(await statusOf(id)).toBe('complete'), { timeout: 15_000 });
    expect(Number((await overview(ADMIN)).pending.withdrawals)).toBeLessThanOrEqual(Number(subtractDecimal(admin.pending.withdrawals, '123.45')));
  });

  it('GET partner/balance/statement.csv: opening + the entries = closing, each row its running balance; every role, own partner only; bad periods are 400', async () => {
    const booked = await withdraw(ADMIN, { amount: '77.70' });
    expect(booked.statusCode).toBe(201);
    const id = booked.json<{ settlement: Settlement }>().settlement.id;
    // days of the app's clock (moved forward by the tests' codes): near midnight UTC it may be tomorrow already
    const today = new Date(t.clock.now).toISOString().slice(0, 10);
    const monthAgo = new Date(t.clock.now - 30 * 86_400_000).toISOString().slice(0, 10);
    const url = `/api/v1/partner/balance/statement.csv?from=${monthAgo}&to=${today}`;
    const get = (email: string, path = url) => w.as(email).browser.get(path, w.opts(email));
    const csvs: string[] = [];
    for (const email of [ADMIN, TREASURY, VIEWER]) {
      const res = await get(email);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      csvs.push(res.body);
    }
    const parse = (csv: string) =>
      csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .map((l) => l.split(','));
    const rows = parse(csvs[0]!);
    expect(rows[0]).toEqual(['Date (UTC)', 'Description', 'Reference', 'Debit', 'Credit', 'Balance', 'Currency']);
    expect(rows[1]!.slice(1, 2)).toEqual(['Opening balance']);
    expect(rows.at(-1)![1]).toBe('Closing balance');
    const cents = (v: string) => (v ? Math.round(Number(v) * 100) : 0);
    let running = cents(rows[1]![5]!);
    for (const r of rows.slice(2, -1)) {
      running += cents(r[4]!) - cents(r[3]!);
      expect(cents(r[5]!)).toBe(running);
      expect(r[6]).toBe('USD');
    }
    expect(cents(rows.at(-1)![5]!)).toBe(running);
    expect(rows.find((r) => r[2] === id)).toMatchObject({ 1: 'Withdrawal to a settlement wallet', 3: '77.70', 4: '' });
    // another partner's statement has none of this partner's entries
    const kora = await get(KORA);
    expect(kora.statusCode).toBe(200);
    expect(kora.body).not.toContain(id);
    // bad periods: a clear 400, not a 500
    const reversed = await get(ADMIN, `/api/v1/partner/balance/statement.csv?from=${today}&to=${monthAgo}`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 'ValidationFailed', message: STATEMENT_MESSAGES.order });
    expect((await get(ADMIN, '/api/v1/partner/balance/statement.csv?from=2020-01-01&to=2026-13-45')).statusCode).toBe(400);
    // a day of the right shape that does not exist is refused, not read as another day (30 February is not 2 March)
    expect((await get(ADMIN, '/api/v1/partner/balance/statement.csv?from=2026-02-01&to=2026-02-30')).statusCode).toBe(400);
    expect((await get(ADMIN, `/api/v1/partner/balance/statement.csv?from=2020-01-01&to=${today}`)).json()).toMatchObject({
      message: STATEMENT_MESSAGES.tooLong,
    });
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    // the same statement as a PDF: the same lines and balances, the same rules and refusals, for every role
    const pdfUrl = url.replace('statement.csv', 'statement.pdf');
    for (const email of [ADMIN, TREASURY, VIEWER]) {
      const res = await w.as(email).browser.get(pdfUrl, w.opts(email));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-USD-${monthAgo}-${today}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const pdf = pdfText((await w.as(TREASURY).browser.get(pdfUrl, w.opts(TREASURY))).rawPayload);
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    expect(pdf.text).toContain('Acme Remit');
    expect(pdf.text).toContain('USD statement');
    expect(pdf.text).toContain(`Page 1 of ${pdf.pages}`);
    const grouped = (v: string) => v.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    // the reference of the withdrawal (wrapped in its column: its parts in order) and every running balance of the CSV
    expect(pdf.text.replace(/\n/g, '')).toContain(id);
    for (const r of rows.slice(1)) expect(pdf.text, r.join(',')).toContain(grouped(r[5]!));
    expect(pdf.text).toContain('77.70');
    const koraPdf = await w.as(KORA).browser.get(pdfUrl, w.opts(KORA));
    expect(koraPdf.statusCode).toBe(200);
    expect(pdfText(koraPdf.rawPayload).text.replace(/\n/g, '')).not.toContain(id);
    expect(pdfText(koraPdf.rawPayload).text).toContain('Kora');
    const pdfReversed = await get(ADMIN, `/api/v1/partner/balance/statement.pdf?from=${today}&to=${monthAgo}`);
    expect(pdfReversed.json()).toMatchObject({ code: 'ValidationFailed', message: STATEMENT_MESSAGES.order });
    expect((await get(ADMIN, `/api/v1/partner/balance/statement.pdf?from=2020-01-01&to=${today}`)).json()).toMatchObject({
      message: STATEMENT_MESSAGES.tooLong,
    });
    expect((await t.app.inject({ method: 'GET', url: pdfUrl })).statusCode).toBe(401);
    // one PDF drawn at a time per partner on an instance: a second one asked meanwhile is refused with when to come
    // back; another partner's is drawn beside it; once the first is done, the next one is drawn
    const [first, second, koraBeside] = await Promise.all([get(ADMIN, pdfUrl), get(TREASURY, pdfUrl), get(KORA, pdfUrl)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 429]);
    const refusedPdf = first.statusCode === 429 ? first : second;
    expect(refusedPdf.json()).toMatchObject({ code: 'TooManyRequests', message: STATEMENT_MESSAGES.pdfBusy });
    expect(refusedPdf.headers['retry-after']).toBe('5');
    expect(koraBeside.statusCode).toBe(200);
    expect((await get(VIEWER, pdfUrl)).statusCode).toBe(200);
    // a PDF holds at most STATEMENT_PDF_MAX_ENTRIES: a busier period is refused with the way out (the CSV still has it);
    // the entries sum to nothing, so the balance the other tests read is untouched
    await t.database.executeSql(
      `insert into ledger_entries (partner_id, currency, amount, kind, reference, created_at)
       select $1, 'USD', case when g % 2 = 0 then 1 else -1 end, 'test_busy_day', 'busy-' || g, '2020-01-01T12:00:00Z'
       from generate_series(1, ${STATEMENT_PDF_MAX_ENTRIES + 2}) g`,
      [ACME],
    );
    const busy = await get(ADMIN, '/api/v1/partner/balance/statement.pdf?from=2020-01-01&to=2020-01-01');
    expect([busy.statusCode, busy.json<{ message: string }>().message]).toEqual([400, STATEMENT_MESSAGES.tooLargeForPdf(STATEMENT_PDF_MAX_ENTRIES + 2)]);
    expect((await get(ADMIN, '/api/v1/partner/balance/statement.csv?from=2020-01-01&to=2020-01-01')).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await statusOf(id)).toBe('complete'), { timeout: 15_000 });
  });
});
