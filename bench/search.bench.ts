// Transaction search at scale, on PostgreSQL: 1,000,000 rows for one partner in payments and in collections, and
// 10,000,000 rows in total across partners. Prints latency figures, index sizes, the insert rate and the plans of
// the hot and the slowest queries; asserts nothing. The data is generated once into BENCH_DATABASE_URL (default:
// database portal_bench on the local server) and reused.
//
// BENCH_SEARCH_MODE:
//   (unset)   warm: every query set runs twice, the second pass is measured
//   cold      before each measured set, PostgreSQL is stopped, the operating system's page cache dropped and the
//             server started again (needs root and a local Debian cluster; skipped with a message otherwise); the
//             same queries then run cold and a second time warm, printed side by side
//   generate  load the data only (run it at low priority, apart from any measurement)
//   writes    the insert rate with the indexes of 0022-search-wallet-indexes, without them (its down step), and with
//             them again (its up step: the index builds take about a minute on the 10,000,000 rows)
//   pglite    the search on the embedded database at the demo's size, without and with the indexes of 0022
// BENCH_SEED picks the random queries (default 1): the same seed gives the same queries, before and after a change.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { keyRing } from '../apps/server/src/lib/keys.ts';
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, DEMO_USERS, seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { generateTransactions } from '../apps/server/src/db/seed/transactions.ts';
import * as walletIndexes from '../apps/server/src/db/migrations/0022-search-wallet-indexes.ts';
import { pageStatement, searchPage, totalStatement } from '../apps/server/src/modules/transactions/transactions.repository.ts';
import { createPartnerAccess } from '../apps/server/src/modules/partners/index.ts';
import type { SearchQuery } from '@portal/contract/transactions';
import { adminToken, csrfHeaders, searchQueries, type SearchShape } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TOTAL = Number(process.env.BENCH_TOTAL_ROWS ?? 10_000_000);
const MODE = process.env.BENCH_SEARCH_MODE ?? 'warm';
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench';
const line = (name: string, value: string) => console.log(`${name.padEnd(60)} ${value}`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function ensureDatabase() {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  await admin.end();
}

/**
 * Stops the local cluster serving `url`, drops the page cache and starts it again. Answers why it cannot, or null
 * when done. Only in the cold mode: other work on the same server loses its connections.
 */
function restartCold(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (to restart PostgreSQL and drop the page cache)';
  const u = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname)) return `${u.hostname} is not this machine`;
  const list = spawnSync('pg_lsclusters', ['-h'], { encoding: 'utf8' });
  if (list.status !== 0) return 'pg_lsclusters is missing (not a Debian PostgreSQL)';
  const cluster = list.stdout
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((c) => c[2] === (u.port || '5432'));
  if (!cluster) return `no local cluster on port ${u.port || '5432'}`;
  const [version, name] = cluster;
  const run = (args: string[]) => {
    const r = spawnSync('pg_ctlcluster', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pg_ctlcluster ${args.join(' ')}: ${r.stderr}`);
  };
  run([version!, name!, 'stop']);
  spawnSync('sync');
  fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
  run([version!, name!, 'start']);
  return null;
}

// random queries of the kinds the portal sends, from a seeded generator: the same seed gives the same queries
const { rnd, randomQuery, day } = searchQueries(Number(process.env.BENCH_SEED ?? 1));
const describe = (s: SearchShape) => `${s.q.table} ${JSON.stringify(s.q.filters)} ${JSON.stringify(s.q.range)} wallet=${s.q.fiatWallet} start=${s.startIndex}`;
/** Random searches on the embedded database with the demo's data, without and then with the indexes of 0022. */
async function pgliteDemo() {
  const lite = await openDatabase({ kind: 'pglite' });
  await migrateToLatest(lite.db);
  await seedDemo(lite.db, keyRing(crypto.createHash('sha256').update('bench-enc').digest()));
  const pass = async () => {
    const times: number[] = [];
    for (const { q, startIndex } of pgliteQueries) {
      const t0 = performance.now();
      await searchPage(lite.db, ACME_ID, q, startIndex % 1000, 10);
      times.push(performance.now() - t0);
    }
    return times;
  };
  console.log('── search: embedded database, demo data (payments 1,200, collections 1,500) ──');
  for (const [label, step] of [
    ['without the indexes of 0022', walletIndexes.down],
    ['with them', walletIndexes.up],
  ] as const) {
    await step(lite.db as unknown as Kysely<unknown>);
    await sql`analyze`.execute(lite.db);
    for (let round = 1; round <= 3; round++) {
      await pass(); // warm-up
      const t = await pass();
      line(`  ${label}, round ${round}, 400 queries`, `p50 ${ms(pct(t, 50))}, p95 ${ms(pct(t, 95))}`);
    }
  }
  await lite.close();
}
let pgliteQueries: SearchShape[] = [];
const ACME_ID = DEMO_PARTNERS.acme.id;

if (MODE === 'pglite') {
  pgliteQueries = Array.from({ length: 400 }, randomQuery);
  await pgliteDemo();
  process.exit(0);
}

await ensureDatabase();
let database: Database = await openDatabase({ kind: 'postgres', url, max: 8 });
let db = database.db;
await migrateToLatest(db);
const keys = {
  jwtSecret: keyRing(crypto.createHash('sha256').update('bench').digest()),
  encryptionKey: keyRing(crypto.createHash('sha256').update('bench-enc').digest()),
};
await seedDemo(db, keys.encryptionKey, { transactions: false });
const ACME = DEMO_PARTNERS.acme.id;

const count = async (table: string, partner?: string) => {
  const { rows } = await database.executeSql(`select count(*)::int as n from ${table}${partner ? ' where partner_id = $1' : ''}`, partner ? [partner] : []);
  return Number((rows[0] as { n: number }).n);
};

console.log('── search: data ──');
for (const table of ['payments', 'collections'] as const) {
  if ((await count(table, ACME)) < ROWS) {
    const t0 = performance.now();
    await generateTransactions(db, { partnerId: ACME, rows: ROWS, seed: `bench-${table}`, fiatWallets: ['USD', 'NGN', 'KES'], tables: [table] });
    line(`generated ${ROWS.toLocaleString('en-US')} ${table} for one partner`, `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
// other partners' rows, so that the tables hold TOTAL rows in all
for (let i = 1; (await count('payments')) + (await count('collections')) < TOTAL; i++) {
  const id = `0b0b0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  await sql`insert into partners (id, name, abbreviation, product_types) values (${id}, ${`Bench ${i}`}, ${`BN${i}`}, ${['B2B']}) on conflict do nothing`.execute(
    db,
  );
  const t0 = performance.now();
  await generateTransactions(db, { partnerId: id, rows: ROWS, seed: `bench-${i}`, fiatWallets: null, tables: ['payments', 'collections'] });
  line(`generated ${(2 * ROWS).toLocaleString('en-US')} rows for filler partner ${i}`, `${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
// after a bulk load, as autovacuum would: statistics, and the visibility map that index-only scans rely on
await sql`vacuum analyze payments`.execute(db);
await sql`vacuum analyze collections`.execute(db);
line('rows: payments + collections (all partners)', ((await count('payments')) + (await count('collections'))).toLocaleString('en-US'));
line(
  'rows for the measured partner (payments, collections)',
  `${(await count('payments', ACME)).toLocaleString('en-US')}, ${(await count('collections', ACME)).toLocaleString('en-US')}`,
);
if (MODE === 'generate') {
  await database.close();
  process.exit(0);
}

// the write path: a bulk insert (rolled back) and single-row inserts, each committed, into the 5,000,000-row table
async function insertRate(label: string) {
  const INSERT_PARTNER = '0b0b0000-0000-4000-8000-1a5e00000000';
  await sql`insert into partners (id, name, abbreviation, product_types) values (${INSERT_PARTNER}, 'Bench inserts', 'BNINS', ${['B2B']}) on conflict do nothing`.execute(
    db,
  );
  const bulk = 100_000;
  let t0 = performance.now();
  await db
    .transaction()
    .execute(async (trx) => {
      await generateTransactions(trx, {
        partnerId: INSERT_PARTNER,
        rows: bulk,
        seed: `insert-${Date.now()}`,
        fiatWallets: ['USD', 'NGN', 'KES'],
        tables: ['payments'],
      });
      throw new Error('rollback');
    })
    .catch((e: unknown) => {
      if ((e as Error).message !== 'rollback') throw e;
    });
  line(
    `${label}bulk insert of ${bulk.toLocaleString('en-US')} payments in one statement (rolled back)`,
    `${Math.round(bulk / ((performance.now() - t0) / 1000)).toLocaleString('en-US')} rows/s`,
  );
  const single = 2_000;
  const runId = Date.now();
  const times: number[] = [];
  t0 = performance.now();
  for (let i = 0; i < single; i++) {
    const t1 = performance.now();
    await generateTransactions(db, {
      partnerId: INSERT_PARTNER,
      rows: 1,
      seed: `single-${runId}-${i}`,
      fiatWallets: ['USD', 'NGN', 'KES'],
      tables: ['payments'],
    });
    times.push(performance.now() - t1);
  }
  line(
    `${label}${single.toLocaleString('en-US')} single-row inserts, each committed`,
    `${Math.round(single / ((performance.now() - t0) / 1000)).toLocaleString('en-US')} rows/s, p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}`,
  );
  await sql`delete from payments where partner_id = ${INSERT_PARTNER}`.execute(db);
  await sql`vacuum payments`.execute(db);
}
if (MODE === 'writes') {
  console.log('── search: insert rate, with and without the indexes of 0022 ──');
  for (let round = 1; round <= 2; round++) await insertRate(`with, round ${round}: `);
  await walletIndexes.down(db as unknown as Kysely<unknown>);
  for (let round = 1; round <= 2; round++) await insertRate(`without, round ${round}: `);
  await walletIndexes.up(db as unknown as Kysely<unknown>);
  await sql`vacuum analyze payments`.execute(db);
  await sql`vacuum analyze collections`.execute(db);
  for (let round = 3; round <= 4; round++) await insertRate(`with, round ${round}: `);
  await database.close();
  process.exit(0);
}

console.log('── search: sizes ──');
const sizes = await sql<{ name: string; bytes: number }>`
  select c.relname as name, pg_relation_size(c.oid)::bigint as bytes from pg_class c
  where c.relname in ('payments', 'collections') or c.oid in (select indexrelid from pg_index where indrelid in ('payments'::regclass, 'collections'::regclass))
  order by c.relname`.execute(db);
for (const r of sizes.rows) line(`  ${r.name}`, mb(Number(r.bytes)));
const indexBytes = sizes.rows.filter((r) => r.name !== 'payments' && r.name !== 'collections').reduce((a, r) => a + Number(r.bytes), 0);
line('  all indexes of the two tables', mb(indexBytes));

const dbQueries = Array.from({ length: 400 }, randomQuery);
const httpQueries = Array.from({ length: 400 }, randomQuery);

const reopen = async () => {
  database = await openDatabase({ kind: 'postgres', url, max: 8 });
  db = database.db;
  // the pool's connections are opened before the clock starts: cold means the data, not the connections
  await Promise.all(Array.from({ length: 8 }, () => sql`select 1`.execute(db)));
};
/** Runs `pass` cold (after a restart without cache, when the mode asks and it can) and then warm. */
async function coldThenWarm(what: string, pass: () => Promise<number[]>): Promise<{ cold?: number[]; warm: number[] }> {
  let cold: number[] | undefined;
  if (MODE === 'cold') {
    await database.close();
    const why = restartCold();
    await reopen();
    if (why) console.log(`cold ${what}: skipped, ${why}`);
    else cold = await pass();
  } else await pass(); // warm-up
  return { cold, warm: await pass() };
}

console.log(`── search: ${MODE === 'cold' ? 'cold, then warm' : 'warm'} ──`);
const inDb = await coldThenWarm('in the database', async () => {
  const times: number[] = [];
  for (const { q, startIndex } of dbQueries) {
    const t0 = performance.now();
    await searchPage(db, ACME, q, startIndex, 10);
    times.push(performance.now() - t0);
  }
  return times;
});

let app: Awaited<ReturnType<typeof buildApp>> | undefined;
const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: '/tmp/portal-bench-http' });
const admin = DEMO_USERS[0]!;
const token = await adminToken(db, keys.jwtSecret, ACME, admin);
let base = '';
let headers: Record<string, string> = {};
let appDatabase: Database | undefined;
/** The server over the database opened last (a cold pass opens a new one). */
const startHttp = async () => {
  if (app && appDatabase === database) return;
  await app?.close();
  appDatabase = database;
  app = await buildApp({ config, database, keys, boss: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
  headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(await csrfHeaders(base, token)) };
};
await startHttp();
const overHttp = await coldThenWarm('over HTTP', async () => {
  await startHttp();
  const times: number[] = [];
  for (const { q, startIndex } of httpQueries) {
    const t0 = performance.now();
    const res = await fetch(`${base}/transactions/search`, { method: 'POST', headers, body: JSON.stringify({ ...q, startIndex, size: 10 }) });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  }
  return times;
});

const figures = (xs: number[] | undefined) => (xs ? `p50 ${ms(pct(xs, 50)).padStart(9)}  p95 ${ms(pct(xs, 95)).padStart(9)}` : 'skipped'.padEnd(29));
console.log(`${''.padEnd(34)} ${'warm'.padEnd(29)} | cold`);
console.log(`${'in the database, 400 queries'.padEnd(34)} ${figures(inDb.warm)} | ${figures(inDb.cold)}   (budget p95 <= 20 warm, <= 50 cold)`);
console.log(`${'over HTTP, 400 requests'.padEnd(34)} ${figures(overHttp.warm)} | ${figures(overHttp.cold)}   (budget p95 <= 30 warm)`);
const first = inDb.cold ?? inDb.warm;
const slow = first
  .map((t, i) => ({ t, warm: inDb.warm[i]!, shape: dbQueries[i]! }))
  .sort((a, b) => b.t - a.t)
  .slice(0, 10);
console.log(`ten slowest query shapes in the database (${inDb.cold ? 'cold, then the same query warm' : 'warm'}):`);
for (const s of slow) console.log(`  ${ms(s.t).padStart(10)} ${inDb.cold ? `${ms(s.warm).padStart(10)} ` : ''}${describe(s.shape)}`);

const ids: number[] = [];
const sampleIds = (await database.executeSql(`select id from payments where partner_id = $1 order by random() limit 200`, [ACME])).rows.map(
  (r) => (r as { id: string }).id,
);
for (let i = 0; i < 300; i++) {
  const id = sampleIds[rnd(sampleIds.length)]!;
  const idFilter = [id.slice(0, 2 + rnd(7)), id.slice(0, 20), id][rnd(3)]!;
  const t0 = performance.now();
  await searchPage(db, ACME, { table: 'payments', filters: {}, idFilter, range: {}, fiatWallet: 'all' }, 0, 10);
  ids.push(performance.now() - t0);
}
line('id search (prefix, first 8, whole), 300 queries', `p50 ${ms(pct(ids, 50))}, p95 ${ms(pct(ids, 95))} (budget p95 <= 10)`);

// deep pages: by startIndex alone, and with the keyset hint of the page before (its last row)
{
  const offset: number[] = [];
  const keyset: number[] = [];
  for (let i = 0; i < 100; i++) {
    const { q } = randomQuery();
    const total = await searchPage(db, ACME, q, 0, 1);
    const startIndex = Math.max(0, Math.min(total.total, 10_000) - 10 - rnd(50) * 10);
    if (startIndex < 100) continue;
    const before = await searchPage(db, ACME, q, startIndex - 10, 10);
    const last = before.rows.at(-1) as { id: string; created_at: Date } | undefined;
    if (!last) continue;
    let t0 = performance.now();
    const a = await searchPage(db, ACME, q, startIndex, 10);
    offset.push(performance.now() - t0);
    t0 = performance.now();
    const b = await searchPage(db, ACME, q, startIndex, 10, { index: startIndex - 1, createdAt: last.created_at.toISOString(), id: last.id });
    keyset.push(performance.now() - t0);
    if (b.via !== 'keyset' || JSON.stringify(a.rows) !== JSON.stringify(b.rows)) throw new Error(`keyset page differs: ${describe({ q, startIndex })}`);
  }
  line(`deep pages (start 100-9,990), ${offset.length} queries, by startIndex`, `p50 ${ms(pct(offset, 50))}, p95 ${ms(pct(offset, 95))}`);
  line('  the same pages with the keyset hint of the page before', `p50 ${ms(pct(keyset, 50))}, p95 ${ms(pct(keyset, 95))}`);
}

const rss0 = process.memoryUsage().rss;
const exportTimes: number[] = [];
for (let run = 0; run < 5; run++) {
  const t0 = performance.now();
  let rows = 0;
  let body: Record<string, unknown> = { table: 'payments', scrollSize: 2500 };
  for (;;) {
    const res = await fetch(`${base}/transactions/scroll`, { method: 'POST', headers, body: JSON.stringify(body) });
    const page = (await res.json()) as { scrollId: string | null; hits: unknown[] };
    rows += page.hits.length;
    if (!page.scrollId) break;
    body = { table: 'payments', scrollSize: 2500, scrollId: page.scrollId };
  }
  exportTimes.push(performance.now() - t0);
  if (rows !== 10_000) throw new Error(`export gave ${rows} rows`);
}
line(
  'export of 10,000 rows by scroll over HTTP, median of 5',
  `${ms(pct(exportTimes, 50))} (budget <= 1 s); rss growth ${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB`,
);

// a report of about 100,000 rows: 55 days of the measured partner's payments, built as the worker builds it
{
  const { createReportsService } = await import('../apps/server/src/modules/reports/reports.service.ts');
  const { buildReport } = await import('../apps/server/src/modules/reports/report-build.ts');
  const { diskStorage } = await import('../apps/server/src/lib/file-storage.ts');
  const storage = diskStorage('/tmp/portal-bench-reports');
  const reports = createReportsService({ db, boss: undefined, storage, partners: createPartnerAccess(db), now: Date.now, activeLimit: 1_000_000 });
  const job = await reports.create(
    { userId: admin.id, partnerId: ACME, role: 'admin', email: admin.email, name: admin.name, sessionId: '' },
    { dataSource: 'payments', startDate: day(100), endDate: day(46), filters: {}, fiatWallet: 'all' },
  );
  const t0 = performance.now();
  await buildReport({ db, storage, partners: createPartnerAccess(db), now: Date.now }, ACME, job.id);
  const built = await reports.get(ACME, job.id);
  line(
    `report of ${built.rowCount?.toLocaleString('en-US')} rows, ${built.totalPages} pages`,
    `${((performance.now() - t0) / 1000).toFixed(2)} s (budget <= 10 s for 100,000)`,
  );
}

console.log('── search: insert rate ──');
await insertRate('');

console.log('── search: plans (docs/performance.md) ──');
const explain = async (title: string, q: SearchQuery, startIndex = 0) => {
  const page = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers, costs off) ${pageStatement(ACME, q, 10, { offset: startIndex })}`.execute(db);
  const total = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers, costs off) ${totalStatement(ACME, q)}`.execute(db);
  console.log(
    `\n### ${title}\n\npage:\n${page.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n\ncapped total:\n${total.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`,
  );
};
const q = (table: SearchQuery['table'], filters: Record<string, string>, fiatWallet = 'all', range: SearchQuery['range'] = {}): SearchQuery => ({
  table,
  filters,
  idFilter: '',
  range,
  fiatWallet,
});
await explain('newest payments, no filter', q('payments', {}));
await explain('payments with status failed', q('payments', { status: 'failed' }));
await explain('collections in a 30-day range', q('collections', {}, 'all', { startDate: day(90), endDate: day(60) }));
await explain('payments by id prefix', { ...q('payments', {}), idFilter: sampleIds[0]!.slice(0, 5) });
await explain('payments by a 2-digit id prefix (the page walks the newest-first index)', { ...q('payments', {}), idFilter: sampleIds[1]!.slice(0, 2) });
// the slow shapes of issue 16
await explain('payments, status complete, country TZ, wallet KES (no match)', q('payments', { status: 'complete', country: 'TZ' }, 'KES'));
await explain('collections, status pending, wallet NGN', q('collections', { status: 'pending' }, 'NGN'));
await explain('payments, status complete, country KE, start 8,740', q('payments', { status: 'complete', country: 'KE' }), 8740);
await explain('collections, 5 weeks, wallet USD, start 9,310', q('collections', {}, 'USD', { startDate: day(235), endDate: day(201) }), 9310);
await explain('payments, status failed, 60 days', q('payments', { status: 'failed' }, 'all', { startDate: day(160), endDate: day(101) }));
// the slowest shapes of the cold run before 0022 (seed 1), and the slowest after it
await explain('payments, wallet NGN, start 1,540', q('payments', {}, 'NGN'), 1540);
await explain('payments, status complete, wallet NGN, start 7,310', q('payments', { status: 'complete' }, 'NGN'), 7310);
await explain('collections, status complete, wallet KES', q('collections', { status: 'complete' }, 'KES'));
await explain('payments, country UG, wallet KES (no match)', q('payments', { country: 'UG' }, 'KES'));
await explain('payments, status failed, country GH', q('payments', { status: 'failed', country: 'GH' }));
await explain('collections, status pending, wallet NGN (sparse)', q('collections', { status: 'pending' }, 'NGN'));
for (const [i, s] of slow.slice(0, 3).entries()) await explain(`slowest of this run #${i + 1}: ${describe(s.shape)}`, s.shape.q, s.shape.startIndex);
await app?.close();
await database.close();
