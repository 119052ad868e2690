import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryByLocale } from '@portal/contract/countries';
import { accountNumberProblem } from '@portal/contract/payments';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_PARTNERS, seedDemo } from '../src/db/seed/demo.ts';
import { enabledMarkets } from '../src/modules/payments/payments.repository.ts';
import { DATABASES, freshDatabase, testKeys } from './harness.ts';

/** The demo seed, with its transactions, against the rules the API enforces on the same data. */
describe.each(DATABASES)('the demo data tells no lies (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
    await migrateToLatest(database.db);
    await seedDemo(database.db, testKeys().encryptionKey);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it.each(['acme', 'kora'] as const)("%s's payments, collections, trades and initiated payments are only in its enabled countries", async (name) => {
    const id = DEMO_PARTNERS[name].id;
    // the rule of the payments API (a payment in a country whose rate is not enabled is refused)
    const enabled = new Set((await enabledMarkets(database.db, id)).map((m) => m.country));
    expect(enabled.size).toBeGreaterThan(0);
    let seen = 0;
    for (const table of ['collections', 'payments', 'trades', 'initiated_payments'] as const) {
      const rows = await database.db.selectFrom(table).select('country').distinct().where('partner_id', '=', id).execute();
      seen += rows.length;
      expect(
        rows.map((r) => r.country).filter((c) => !enabled.has(c)),
        table,
      ).toEqual([]);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a phone account number is valid for the payment forms and starts with its country's dialling code", async () => {
    const rows = await database.db
      .selectFrom('collections')
      .select(['country', 'account_number'])
      .where('account_type', '=', 'phone')
      .unionAll((eb) => eb.selectFrom('payments').select(['country', 'account_number']).where('account_type', '=', 'phone'))
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const wrong = rows.filter((r) => {
      const dialling = countryByLocale(r.country)!.code.replace(/\D/g, '');
      return accountNumberProblem('phone', r.account_number ?? '') !== undefined || !(r.account_number ?? '').startsWith(dialling);
    });
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('a fee row has its own id and names the payment it is for', async () => {
    const fees = await database.db.selectFrom('fees').select(['id', 'transaction_id']).execute();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.filter((f) => f.id === f.transaction_id)).toEqual([]);
    expect(fees.every((f) => f.transaction_id)).toBe(true);
  });
});
