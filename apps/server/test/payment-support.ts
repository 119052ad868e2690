import crypto from 'node:crypto';
import { startPaymentWorker, type PaymentWorkerDeps } from '../src/modules/payments/payment-processing.ts';
import type { TestContext } from './harness.ts';

/** The id of the demo's channel of a country, a direction (deposit: collections, withdraw: payouts) and a type. */
export async function channelOf(t: Pick<TestContext, 'database'>, country: string, ramp: 'deposit' | 'withdraw', type: string) {
  return (
    await t.database.db
      .selectFrom('channels')
      .select('id')
      .where('country', '=', country)
      .where('ramp_type', '=', ramp)
      .where('channel_type', '=', type)
      .executeTakeFirstOrThrow()
  ).id;
}

/**
 * A disbursement body to an M-Pesa number in Kenya (the demo's channel and network there), for an amount: its last
 * digit decides how the simulated payment ends. Each body has a new sequenceId.
 */
export async function kenyaMomo(t: Pick<TestContext, 'database'>) {
  const channelId = await channelOf(t, 'KE', 'withdraw', 'momo');
  const networkId = (
    await t.database.db.selectFrom('payment_networks').select('id').where('country', '=', 'KE').where('code', '=', 'MPESA').executeTakeFirstOrThrow()
  ).id;
  return (amount: string) => ({
    country: 'KE',
    channelId,
    networkId,
    accountNumber: '+254712345678',
    recipient: { name: 'Amina Juma' },
    amount,
    sequenceId: crypto.randomUUID(),
  });
}

/**
 * What a payment worker of the test app runs on (its queue, database, live bus, notifier, ledger and clock), every step
 * at once (`PAYMENT_STEP_SECONDS: '0'`) unless `overrides` says otherwise.
 */
export function paymentWorkerDeps(t: Pick<TestContext, 'app' | 'database'>, overrides: Partial<PaymentWorkerDeps> = {}): PaymentWorkerDeps {
  return {
    boss: t.app.boss!,
    db: t.database.db,
    live: t.app.liveBus,
    notifier: t.app.services.notifier,
    ledger: t.app.services.ledger,
    stepSeconds: 0,
    log: t.app.log,
    now: t.app.clock,
    ...overrides,
  };
}

/** The sandbox payment worker on the test app's own queue, every step at once. */
export function startTestPaymentWorker(t: TestContext, options: { concurrency?: number } = {}) {
  return startPaymentWorker({ ...paymentWorkerDeps(t), ...options });
}
