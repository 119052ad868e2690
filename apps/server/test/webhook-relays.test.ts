import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_PARTNERS, seedDemo } from '../src/db/seed/demo.ts';
import { encrypt } from '../src/lib/keys.ts';
import { claimDueDeliveries, insertDelivery, insertEvent } from '../src/modules/webhooks/webhooks.repository.ts';
import { freshDatabase, testKeys } from './harness.ts';

const ACME = DEMO_PARTNERS.acme.id;
const DELIVERIES = 100;

/**
 * The webhook relay's claim (webhooks.repository.ts `claimDueDeliveries`) as two servers run it on one PostgreSQL
 * database: while one relay's claim is not yet committed, the other takes the remaining due deliveries at once
 * (`skip locked`: it neither waits nor takes the same rows), and each delivery ends claimed by exactly one relay, its
 * job id the one that relay queued.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two webhook relays on one PostgreSQL database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await migrateToLatest(database.db);
    const keys = testKeys();
    await seedDemo(database.db, keys.encryptionKey);
    const endpoint = crypto.randomUUID();
    await database.db
      .insertInto('webhook_endpoints')
      .values({
        partner_id: ACME,
        id: endpoint,
        url: 'https://example.com/hook',
        events: ['PAYMENT.COMPLETE'],
        secret_encrypted: encrypt(keys.encryptionKey, 'whsec_x'),
      })
      .execute();
    // one delivery per event and endpoint: a hundred events, each with its delivery
    for (let i = 0; i < DELIVERIES; i++) {
      const event = crypto.randomUUID();
      await insertEvent(database.db, { partnerId: ACME, id: event, type: 'PAYMENT.COMPLETE', data: { id: `p-${i}` }, dedupeKey: null });
      await insertDelivery(database.db, { partnerId: ACME, id: crypto.randomUUID(), eventId: event, endpointId: endpoint, manual: false });
    }
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it('splits the due deliveries between them while both claims are open, without waiting, each delivery once', async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: (rows: { id: string; job_id: string }[]) => void;
    const first = new Promise<{ id: string; job_id: string }[]>((resolve) => (firstClaimed = resolve));
    // relay A claims 60 and keeps its transaction open (its jobs not yet queued)
    const relayA = database.db.transaction().execute(async (trx) => {
      firstClaimed(await claimDueDeliveries(trx, 60));
      await firstHeld;
    });
    const a = await first;
    expect(a.length).toBe(60);
    // relay B, meanwhile, on its own connection: the other 40, at once
    const b = await Promise.race([
      database.db.transaction().execute((trx) => claimDueDeliveries(trx, 60)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the second relay waited for the first')), 5_000)),
    ]);
    releaseFirst();
    await relayA;
    expect(b.length).toBe(DELIVERIES - 60);
    const claimedA = new Set(a.map((r) => r.id));
    expect(b.filter((r) => claimedA.has(r.id))).toEqual([]);

    // each delivery holds the job id of the one relay that claimed it, and nothing is left to claim
    const rows = await database.db.selectFrom('webhook_deliveries').select(['id', 'job_id']).where('partner_id', '=', ACME).execute();
    const queued = new Map([...a, ...b].map((r) => [r.id, r.job_id]));
    expect(rows.length).toBe(DELIVERIES);
    expect(rows.filter((r) => queued.get(r.id) !== r.job_id)).toEqual([]);
    expect(await database.db.transaction().execute((trx) => claimDueDeliveries(trx, 60))).toEqual([]);
  });
});
