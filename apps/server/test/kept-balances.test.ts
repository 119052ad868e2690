import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, subtractDecimal } from '@portal/contract/decimal';
import { sandboxOutcome, type Payment } from '@portal/contract/payments';
import type { Settlement } from '@portal/contract/settlements';
import type { SettlementWallet } from '@portal/contract/wallets';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { simulatedPayer } from '../src/modules/withdrawals/payer.ts';
import { ledgerSummary, reconcileAccounts } from '../src/modules/ledger/ledger.repository.ts';
import { DATABASES, type TestContext } from './harness.ts';
import { kenyaMomo, startTestPaymentWorker } from './payment-support.ts';
import { until, withdrawalBody, withdrawalSetup, type TestPayer, type walletActors } from './wallet-support.ts';

const ADMIN = 'admin@acme.test';
const TREASURY = 'treasury@acme.test';
const ACME = DEMO_PARTNERS.acme.id;

/** Withdrawals of amounts ending in .13 cannot be sent and those ending in .17 are dropped after sending: both come back. */
const payer: TestPayer = (amountOf) => ({
  async send(p) {
    return (await amountOf(p.settlementId)).endsWith('.13') ? { ok: false, reason: 'The network refused the transaction' } : simulatedPayer.send(p);
  },
  async confirm(p) {
    return (await amountOf(p.settlementId)).endsWith('.17') ? { ok: false, reason: 'The transaction was dropped by the network' } : { ok: true };
  },
});

/**
 * The balance and the reservations each account keeps (migration 0039) stay equal to the sum of its ledger entries while
 * withdrawals, disbursements, collections and refunds of one account run at once and finish in the background: checked
 * in one snapshot while they run, and at the end against what their final states moved.
 */
describe.each(DATABASES)('kept balances on %s', (kind) => {
  let t: TestContext;
  let w: Awaited<ReturnType<typeof walletActors>>;
  let wallet: SettlementWallet;
  let stopPayments: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, w, wallet } = await withdrawalSetup(kind, {
      payer,
      users: [ADMIN, TREASURY],
      // the 32 calls below queue on one account's row lock: on a busy two-core machine the last of them waits past the
      // 5 s request deadline, whose 503 is request-deadline.test.ts's subject, not this one's (the books, not the wait)
      config: { PAYMENT_STEP_SECONDS: '0', REQUEST_DEADLINE_SECONDS: '60' },
    }));
    const worker = await startTestPaymentWorker(t, { concurrency: 2 });
    stopPayments = () => worker.stop();
  });
  afterAll(async () => {
    await stopPayments?.();
    await t?.close();
  });

  const kept = async () =>
    t.database.db
      .selectFrom('currency_accounts')
      .select(['balance', 'pending_withdrawals', 'pending_disbursements'])
      .where('partner_id', '=', ACME)
      .where('currency', '=', 'USD')
      .executeTakeFirstOrThrow();

  it('withdrawals, payments and refunds at once: every kept balance equals the sum of its entries, during and after', async () => {
    expect(await reconcileAccounts(t.database.db)).toEqual([]);
    const start = (await ledgerSummary(t.database.db, ACME, 'USD')).balance;
    expect(compareDecimal((await kept()).balance, start)).toBe(0);

    const momo = await kenyaMomo(t);
    const { id: collectChannel } = await t.database.db
      .selectFrom('channels')
      .select('id')
      .where('country', '=', 'KE')
      .where('ramp_type', '=', 'deposit')
      .where('channel_type', '=', 'momo')
      .executeTakeFirstOrThrow();
    const withdrawalAmounts = ['100.00', '100.13', '100.17', '250.50', '75.13', '60.17', '99.99', '10.00', '20.13', '30.17', '40.00', '55.55'];
    // the sandbox's test amounts: 0 completes, 1 fails, 2 expires, 3 is refunded after completing, 4 is denied
    const paymentAmounts = ['1000', '1001', '1002', '1003', '1004', '2000', '2003', '3001', '4003', '5000'];
    const post = (email: string, path: string, body: unknown) => w.as(email).browser.post(`/api/v1/partner/${path}`, body, w.opts(email));
    const calls = [
      ...withdrawalAmounts.map((amount, i) =>
        post(i % 2 ? ADMIN : TREASURY, 'settlement/withdrawal', withdrawalBody(wallet.address, { amount })).then((res) => ({
          kind: 'withdrawal' as const,
          res,
        })),
      ),
      ...paymentAmounts.map((amount, i) =>
        post(i % 2 ? ADMIN : TREASURY, 'disbursement', momo(amount)).then((res) => ({ kind: 'disbursement' as const, res })),
      ),
      ...paymentAmounts.map((amount) =>
        post(ADMIN, 'collection', {
          country: 'KE',
          channelId: collectChannel,
          accountNumber: '254722000111',
          payer: { name: 'Kofi Mensah' },
          amount,
          sequenceId: crypto.randomUUID(),
        }).then((res) => ({ kind: 'collection' as const, res })),
      ),
    ];
    // while they are booked and worked, the books agree at every moment (each check is one snapshot)
    let checks = 0;
    let running = true;
    const watching = (async () => {
      while (running) {
        expect(await reconcileAccounts(t.database.db, ACME)).toEqual([]);
        checks += 1;
        // a turn of the event loop between checks (the embedded database answers without one)
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const replies = await Promise.all(calls);
    // a refused call ends the test here: the watcher stops first, so that it reads no database the test has closed
    if (replies.some(({ res }) => res.statusCode !== 201)) {
      running = false;
      await watching;
    }
    for (const { res } of replies) expect(res.statusCode, res.body).toBe(201);

    const withdrawals = replies.filter((r) => r.kind === 'withdrawal').map((r) => r.res.json<{ settlement: Settlement }>().settlement);
    const disbursements = replies.filter((r) => r.kind === 'disbursement').map((r) => r.res.json<{ payment: Payment }>().payment);
    const collections = replies.filter((r) => r.kind === 'collection').map((r) => r.res.json<{ payment: Payment }>().payment);
    const statusOf = async (table: 'settlements' | 'payment_orders', id: string) =>
      (await t.database.db.selectFrom(table).select('status').where('partner_id', '=', ACME).where('id', '=', id).executeTakeFirst())?.status;
    const FINAL = ['complete', 'failed', 'expired', 'refunded', 'denied'];
    await until(
      async () => {
        for (const s of withdrawals) if (!FINAL.includes((await statusOf('settlements', s.id))!)) return false;
        for (const p of [...disbursements, ...collections]) if ((await statusOf('payment_orders', p.id)) !== sandboxOutcome(p.amount)) return false;
        return true;
      },
      'every withdrawal and payment finished',
      60_000,
    );
    running = false;
    await watching;

    // what their final states moved: a withdrawal that came back moved nothing; a refunded disbursement kept its fee
    let expected = start;
    for (const s of withdrawals) if ((await statusOf('settlements', s.id)) === 'complete') expected = subtractDecimal(expected, s.amount);
    for (const p of disbursements) {
      if (sandboxOutcome(p.amount) === 'complete') expected = subtractDecimal(expected, p.totalUsd);
      if (sandboxOutcome(p.amount) === 'refunded') expected = subtractDecimal(expected, p.feeUsd);
    }
    for (const p of collections) {
      if (sandboxOutcome(p.amount) === 'complete') expected = addDecimal(expected, p.totalUsd);
      if (sandboxOutcome(p.amount) === 'refunded') expected = subtractDecimal(expected, p.feeUsd);
    }
    const after = await kept();
    console.log(
      `${kind}: ${withdrawals.length} withdrawals, ${disbursements.length} disbursements, ${collections.length} collections at once; ` +
        `${checks} reconciliations while they ran, none differing; USD ${start} -> ${after.balance}`,
    );
    expect(checks).toBeGreaterThan(0);
    expect(compareDecimal(after.balance, expected)).toBe(0);
    expect([after.pending_withdrawals, after.pending_disbursements].map((v) => compareDecimal(v, '0'))).toEqual([0, 0]);
    expect(await reconcileAccounts(t.database.db)).toEqual([]);
    // and the screens read the kept figures
    const overview = await w.as(ADMIN).browser.get('/api/v1/partner/balance', w.opts(ADMIN));
    expect(overview.json()).toMatchObject({ available: subtractDecimal(expected, '0').replace(/(\.\d\d)\d*$/, '$1'), pending: { total: '0.00' } });
  });

  it('keeps a reservation while it is under way, and refuses to change an entry', async () => {
    const before = await kept();
    const res = await w.as(ADMIN).browser.post('/api/v1/partner/settlement/withdrawal', withdrawalBody(wallet.address, { amount: '12.00' }), w.opts(ADMIN));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ settlement: Settlement }>().settlement.id;
    // held by a hand: its status set back to pending counts it again, as the booking did
    await until(
      async () => (await t.database.db.selectFrom('settlements').select('status').where('id', '=', id).executeTakeFirst())?.status === 'complete',
      'done',
    );
    await t.database.db.updateTable('settlements').set({ status: 'processing' }).where('partner_id', '=', ACME).where('id', '=', id).execute();
    expect(compareDecimal((await kept()).pending_withdrawals, addDecimal(before.pending_withdrawals, '12'))).toBe(0);
    expect(await reconcileAccounts(t.database.db, ACME)).toEqual([]);
    await t.database.db.updateTable('settlements').set({ status: 'complete' }).where('partner_id', '=', ACME).where('id', '=', id).execute();
    expect(compareDecimal((await kept()).pending_withdrawals, before.pending_withdrawals)).toBe(0);
    await expect(sql`update ledger_entries set amount = amount * 2 where partner_id = ${ACME} and reference = ${id}`.execute(t.database.db)).rejects.toThrow(
      /only ever added/,
    );
    expect(await reconcileAccounts(t.database.db)).toEqual([]);
  });
});
