// The month-end reconciliation on a large seed, on PostgreSQL: BENCH_ROWS (default 20,000; 1,000,000 for the size) rows in each
// transaction table of each demo partner (`npm run seed -- --transactions N`, the ledger booked from them), then, for
// last month and each wallet, every ledger entry against the rows of the tables (the suite runs the same check on the
// demo's data). Prints the seed's time, each wallet's entries, unmatched entries, the tables'
// sums against the entries' total and Fees against the fees taken, and how long each check took. A scratch database
// on the server of BENCH_DATABASE_URL, dropped after. Asserts nothing: a mismatch is printed as DIFFERS.
import crypto from 'node:crypto';
import os from 'node:os';
import { toUnits } from '@portal/contract/decimal';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, seedDemo, seedManyTransactions } from '../apps/server/src/db/seed/demo.ts';
import { reconcileTables } from '../apps/server/src/db/seed/reconcile-tables.ts';
import { keyRing } from '../apps/server/src/lib/keys.ts';
import { benchServerUrl, withAdminClient as admin } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);

const name = `portal_bench_reconcile_${crypto.randomBytes(4).toString('hex')}`;
await admin((c) => c.query(`create database ${name}`));
const url = new URL(benchServerUrl);
url.pathname = `/${name}`;
try {
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 2 });
  console.log(`── month-end reconciliation: every ledger entry against the tables, ${ROWS.toLocaleString('en-US')} rows per table and partner ──`);
  line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);
  await migrateToLatest(database.db);
  await seedDemo(database.db, keyRing(crypto.randomBytes(32)), { transactions: false });
  const t0 = performance.now();
  await seedManyTransactions(database.db, ROWS);
  line('seed (rows, fees, the ledger booked from them)', `${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  for (const [partner, currency] of [
    ['acme', 'USD'],
    ['acme', 'NGN'],
    ['acme', 'KES'],
    ['kora', 'USD'],
  ] as const) {
    const t1 = performance.now();
    const r = await reconcileTables(database.db, DEMO_PARTNERS[partner].id, currency, from, to);
    const took = performance.now() - t1;
    const tables = Object.values(r.byTable).reduce((a, v) => a + toUnits(v), 0n);
    const ok =
      r.unmatched === 0 &&
      tables === toUnits(r.total) &&
      toUnits(r.feeRowsTotal) === toUnits(r.feesTaken) &&
      -toUnits(r.byTable.fees) === toUnits(r.feeRowsTotal) &&
      r.feeRowsNotBooked === 0;
    line(
      `${partner} ${currency}, last month`,
      `${r.entries.toLocaleString('en-US')} entries, ${r.unmatched} unmatched, total ${r.total}, Fees ${r.feeRowsTotal} (${r.feeRows} rows): ${ok ? 'agrees' : 'DIFFERS'}, ${(took / 1000).toFixed(1)} s`,
    );
  }
  await database.close();
} finally {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}
