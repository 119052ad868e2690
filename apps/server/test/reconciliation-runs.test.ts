import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { DATABASES, setup, type TestContext } from './harness.ts';
import { sample } from './prometheus-text.ts';

const ACME = DEMO_PARTNERS.acme.id;

/**
 * The daily reconciliation kept and watched: each run's findings are kept for a person to read (reconciliation_runs),
 * and /metrics shows the latest run's counts and time, which the LedgerMismatch and ReconciliationMissing alerts read
 * (deploy/alerts/portal.rules.yml).
 */
describe.each(DATABASES)('the reconciliation, kept and shown to the alerts (%s)', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    // with the demo's transactions: their payouts, each booked by the seed as a request books one
    t = await setup(kind, { transactions: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const runs = () => t.database.db.selectFrom('reconciliation_runs').selectAll().orderBy('ran_at').execute();

  it('shows no run (time 0) before the first, then a run of the seeded books: nothing wrong, kept with its time', async () => {
    const before = await scrape();
    expect(sample(before, 'portal_reconciliation_differences', { kind: 'accounts' })).toBeUndefined();
    expect(sample(before, 'portal_reconciliation_last_run_timestamp_seconds')).toBe(0);

    const at = new Date('2026-11-30T03:17:00Z');
    const run = await t.app.services.ledger.runReconciliation(at);
    expect(run.accountsChecked).toBeGreaterThan(0);
    expect(run.differingAccounts).toEqual([]);
    expect(run.unmatchedWithdrawals).toEqual([]);
    const [kept] = await runs();
    expect(kept).toMatchObject({ accounts_checked: run.accountsChecked, differing_accounts: [], unmatched_withdrawals: [] });

    const text = await scrape();
    expect(sample(text, 'portal_reconciliation_differences', { kind: 'accounts' })).toBe(0);
    expect(sample(text, 'portal_reconciliation_differences', { kind: 'withdrawals' })).toBe(0);
    expect(sample(text, 'portal_reconciliation_last_run_timestamp_seconds')).toBe(at.getTime() / 1000);
  });

  it('names an account whose kept balance moved without an entry and a withdrawal without its debit, and shows both counts', async () => {
    const db = t.database.db;
    await db
      .updateTable('currency_accounts')
      .set((eb) => ({ balance: eb('balance', '+', '0.01') }))
      .where('partner_id', '=', ACME)
      .where('currency', '=', 'USD')
      .execute();
    // a withdrawal written as no request writes one: its settlement, without the debit that books it
    const payout = await db
      .selectFrom('settlements')
      .selectAll()
      .where('partner_id', '=', ACME)
      .where('type', '=', 'payout')
      .limit(1)
      .executeTakeFirstOrThrow();
    const id = crypto.randomUUID();
    await db
      .insertInto('settlements')
      .values({ ...payout, id, sequence_id: `unbooked-${id}`, status: 'complete' })
      .execute();

    const at = new Date('2026-12-01T03:17:00Z');
    const run = await t.app.services.ledger.runReconciliation(at);
    expect(run.differingAccounts).toMatchObject([{ partner_id: ACME, currency: 'USD' }]);
    expect(run.unmatchedWithdrawals).toEqual([{ partner_id: ACME, id, status: 'complete', debits: 0 }]);
    const kept = (await runs()).at(-1)!;
    expect(kept.differing_accounts).toMatchObject([{ partner_id: ACME, currency: 'USD' }]);
    expect(kept.unmatched_withdrawals).toEqual([{ partner_id: ACME, id, status: 'complete', debits: 0 }]);

    const text = await scrape();
    expect(sample(text, 'portal_reconciliation_differences', { kind: 'accounts' })).toBe(1);
    expect(sample(text, 'portal_reconciliation_differences', { kind: 'withdrawals' })).toBe(1);
    expect(sample(text, 'portal_reconciliation_last_run_timestamp_seconds')).toBe(at.getTime() / 1000);
  });
});
