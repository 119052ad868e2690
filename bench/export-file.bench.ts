// The files of the transaction tables: writing 10,000 rows (the export maximum) in the shared column set, as the
// portal does after fetching them, per table; and a report of 10,000 payments built end to end (read page by page,
// written, committed) on the embedded database. Prints figures; asserts nothing.
import crypto from 'node:crypto';
import { keyRing } from '../apps/server/src/lib/keys.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportCsv } from '@portal/contract/export-columns';
import { SEARCH_TABLES, type SearchTable, type TransactionRowOf } from '@portal/contract/transactions';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, DEMO_USERS, seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { generateTransactions, type TransactionTable } from '../apps/server/src/db/seed/transactions.ts';
import { buildReport } from '../apps/server/src/modules/reports/report-build.ts';
import { diskStorage } from '../apps/server/src/lib/file-storage.ts';
import { createReportsService } from '../apps/server/src/modules/reports/reports.service.ts';
import { scrollBatch } from '../apps/server/src/modules/transactions/transactions.repository.ts';
import { toRows } from '../apps/server/src/modules/transactions/transactions.rows.ts';
import { createPartnerAccess } from '../apps/server/src/modules/partners/index.ts';

const line = (name: string, value: string) => console.log(`${name.padEnd(58)} ${value}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROWS = 10_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'pgdata') });
const db = database.db;
await migrateToLatest(db);
await seedDemo(db, keyRing(crypto.createHash('sha256').update('bench-export').digest()), { transactions: false });
const ACME = DEMO_PARTNERS.acme.id;
const dbTable: Record<SearchTable, TransactionTable | 'payments + collections'> = {
  payments: 'payments',
  collections: 'collections',
  settlements: 'settlements',
  fees: 'fees',
  trades: 'trades',
  'initiate-payments': 'initiated_payments',
  all: 'payments + collections',
};
// 15,000 rows over 18 months: about 10,000 in the last year (the report); fees are made from the partner's payments
// and collections, so those come first
await generateTransactions(db, {
  partnerId: ACME,
  rows: 15_000,
  seed: 'bench-export',
  fiatWallets: ['USD', 'NGN', 'KES'],
  tables: ['payments', 'collections', 'settlements', 'trades', 'initiated_payments', 'fees'],
});

console.log('── files: 10,000 rows in the shared column set ──');
for (const table of SEARCH_TABLES) {
  const rows = toRows(
    table,
    await scrollBatch(db, ACME, { table, filters: {}, idFilter: '', range: {}, fiatWallet: 'all' }, undefined, ROWS),
  ) as TransactionRowOf<SearchTable>[];
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    size = exportCsv(table, rows, { walletMode: true }).length;
    times.push(performance.now() - t0);
  }
  line(
    `${table} (${dbTable[table]}), ${rows.length.toLocaleString('en-US')} rows, median of 7`,
    `${median(times).toFixed(0)} ms, ${(size / 1e6).toFixed(1)} MB`,
  );
}

console.log('── report file: 10,000 payments built end to end (embedded database) ──');
const storage = diskStorage(path.join(dir, 'files'));
const reports = createReportsService({ db, boss: undefined, storage, partners: createPartnerAccess(db), now: () => Date.now(), activeLimit: 100 });
const admin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
const auth = { userId: admin.id, partnerId: ACME, role: admin.role, email: admin.email, name: admin.name, sessionId: 'bench' };
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const builds: number[] = [];
let written = 0;
for (let i = 0; i < 3; i++) {
  const job = await reports.create(auth, { dataSource: 'payments', startDate: day(-365), endDate: day(0), filters: {}, fiatWallet: 'all' });
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  await buildReport({ db, storage, partners: createPartnerAccess(db), now: () => Date.now() }, ACME, job.id);
  builds.push(performance.now() - t0);
  written = (await reports.get(ACME, job.id)).rowCount ?? 0;
  if (i === 2) line('rss growth of the last build', `${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB`);
}
line(`report build, ${written.toLocaleString('en-US')} rows in the last year, median of 3`, `${median(builds).toFixed(0)} ms (budget for 10,000 rows: <= 1 s)`);

await database.close();
fs.rmSync(dir, { recursive: true, force: true });
