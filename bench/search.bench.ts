// Transaction search at scale, on PostgreSQL: 1,000,000 rows for one partner in payments and in collections, and
// 10,000,000 rows in total across partners. Prints latency figures and the plans of the hot queries; asserts nothing.
// The data is generated once into BENCH_DATABASE_URL (default: database portal_bench on the local server) and reused.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, DEMO_USERS, seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { generateTransactions } from '../apps/server/src/db/seed/transactions.ts';
import { conditions, searchPage } from '../apps/server/src/modules/transactions/transactions.repository.ts';
import type { SearchQuery } from '@portal/contract/transactions';
import { adminToken, csrfHeaders } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TOTAL = Number(process.env.BENCH_TOTAL_ROWS ?? 10_000_000);
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench';
const line = (name: string, value: string) => console.log(`${name.padEnd(60)} ${value}`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;

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

await ensureDatabase();
const database = await openDatabase({ kind: 'postgres', url, max: 8 });
const db = database.db;
await migrateToLatest(db);
const keys = { jwtSecret: crypto.createHash('sha256').update('bench').digest(), encryptionKey: crypto.createHash('sha256').update('bench-enc').digest() };
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
  await sql`insert into partners (id, name, abbreviation, product_types) values (${id}, ${`Bench ${i}`}, ${`BN${i}`}, ${['B2B']}) on conflict do nothing`.execute(db);
  const t0 = performance.now();
  await generateTransactions(db, { partnerId: id, rows: ROWS, seed: `bench-${i}`, fiatWallets: null, tables: ['payments', 'collections'] });
  line(`generated ${(2 * ROWS).toLocaleString('en-US')} rows for filler partner ${i}`, `${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
// after a bulk load, as autovacuum would: statistics, and the visibility map that index-only scans rely on
await sql`vacuum analyze payments`.execute(db);
await sql`vacuum analyze collections`.execute(db);
line('rows: payments + collections (all partners)', ((await count('payments')) + (await count('collections'))).toLocaleString('en-US'));
line('rows for the measured partner (payments, collections)', `${(await count('payments', ACME)).toLocaleString('en-US')}, ${(await count('collections', ACME)).toLocaleString('en-US')}`);

// random queries of the kinds the portal sends
const rnd = (n: number) => Math.floor(Math.random() * n);
const STATUSES = ['complete', 'pending', 'failed', 'processing', 'expired', 'refunded'];
const COUNTRIES = ['NG', 'KE', 'GH', 'ZA', 'UG', 'TZ', 'RW'];
const sampleIds = (await database.executeSql(`select id from payments where partner_id = $1 order by random() limit 200`, [ACME])).rows.map((r) => (r as { id: string }).id);
function randomQuery(): { q: SearchQuery; startIndex: number } {
  const table = rnd(2) ? 'payments' : 'collections';
  const filters: Record<string, string> = {};
  if (rnd(2)) filters.status = STATUSES[rnd(STATUSES.length)]!;
  if (rnd(3) === 0) filters.country = COUNTRIES[rnd(COUNTRIES.length)]!;
  const day = (d: number) => new Date(Date.now() - d * 86400_000).toISOString().slice(0, 10);
  const from = 1 + rnd(500);
  const range = rnd(3) === 0 ? { startDate: day(from + rnd(60)), endDate: day(from) } : {};
  const fiatWallet = rnd(4) === 0 ? ['USD', 'NGN', 'KES'][rnd(3)]! : 'all';
  return { q: { table, filters, idFilter: '', range, fiatWallet }, startIndex: rnd(4) === 0 ? rnd(999) * 10 : 0 };
}

console.log('── search: in the database (page of 10 + capped total) ──');
const inDb: number[] = [];
const slowest: { t: number; what: string }[] = [];
for (let i = 0; i < 400; i++) {
  const { q, startIndex } = randomQuery();
  const t0 = performance.now();
  await searchPage(db, ACME, q, startIndex, 10);
  const t = performance.now() - t0;
  inDb.push(t);
  slowest.push({ t, what: `${q.table} ${JSON.stringify(q.filters)} ${JSON.stringify(q.range)} wallet=${q.fiatWallet} start=${startIndex}` });
}
line('random filter/date/wallet/page, 400 queries', `p50 ${ms(pct(inDb, 50))}, p95 ${ms(pct(inDb, 95))} (budget p50 <= 5, p95 <= 20)`);
for (const s of slowest.sort((a, b) => b.t - a.t).slice(0, 8)) console.log(`  slow: ${ms(s.t)} ${s.what}`);
const ids: number[] = [];
for (let i = 0; i < 300; i++) {
  const id = sampleIds[rnd(sampleIds.length)]!;
  const idFilter = [id.slice(0, 2 + rnd(7)), id.slice(0, 20), id][rnd(3)]!;
  const t0 = performance.now();
  await searchPage(db, ACME, { table: 'payments', filters: {}, idFilter, range: {}, fiatWallet: 'all' }, 0, 10);
  ids.push(performance.now() - t0);
}
line('id search (prefix, first 8, whole), 300 queries', `p50 ${ms(pct(ids, 50))}, p95 ${ms(pct(ids, 95))} (budget p95 <= 10)`);

console.log('── search: over HTTP with a token ──');
const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: '/tmp/portal-bench-http' });
const app = await buildApp({ config, database, keys });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
const admin = DEMO_USERS[0]!;
const token = await adminToken(db, keys.jwtSecret, ACME, admin);
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(await csrfHeaders(base)) };
const http: number[] = [];
for (let i = 0; i < 400; i++) {
  const { q, startIndex } = randomQuery();
  const t0 = performance.now();
  const res = await fetch(`${base}/transactions/search`, { method: 'POST', headers, body: JSON.stringify({ ...q, startIndex, size: 10 }) });
  await res.arrayBuffer();
  http.push(performance.now() - t0);
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
}
line('random queries over HTTP, 400 requests', `p50 ${ms(pct(http, 50))}, p95 ${ms(pct(http, 95))} (budget p95 <= 30)`);

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
line('export of 10,000 rows by scroll over HTTP, median of 5', `${ms(pct(exportTimes, 50))} (budget <= 1 s); rss growth ${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB`);

// a report of about 100,000 rows: 55 days of the measured partner's payments, built as the worker builds it
{
  const { createReportsService } = await import('../apps/server/src/modules/reports/reports.service.ts');
  const { buildReport } = await import('../apps/server/src/jobs/report-build.ts');
  const { diskStorage } = await import('../apps/server/src/lib/file-storage.ts');
  const storage = diskStorage('/tmp/portal-bench-reports');
  const reports = createReportsService({ db, boss: undefined, storage, now: Date.now, activeLimit: 1_000_000 });
  const day = (d: number) => new Date(Date.now() - d * 86400_000).toISOString().slice(0, 10);
  const job = await reports.create({ userId: admin.id, partnerId: ACME, role: 'admin', email: admin.email, name: admin.name, sessionId: '' }, { dataSource: 'payments', startDate: day(100), endDate: day(46), filters: {}, fiatWallet: 'all' });
  const t0 = performance.now();
  await buildReport({ db, storage, now: Date.now }, ACME, job.id);
  const built = await reports.get(ACME, job.id);
  line(`report of ${built.rowCount?.toLocaleString('en-US')} rows, ${built.totalPages} pages`, `${((performance.now() - t0) / 1000).toFixed(2)} s (budget <= 10 s for 100,000)`);
}

console.log('── search: plans (docs/performance.md) ──');
const explain = async (title: string, q: SearchQuery, startIndex = 0) => {
  const where = sql.join(conditions(ACME, q), sql` and `);
  const page = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers off, costs off) select * from ${sql.table(q.table)} where ${where} order by created_at desc, id desc limit 10 offset ${startIndex}`.execute(db);
  const total = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers off, costs off) select count(*) from (select 1 from ${sql.table(q.table)} where ${where} limit 10001) c`.execute(db);
  console.log(`\n### ${title}\n\npage:\n${page.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n\ncapped total:\n${total.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
};
await explain('newest payments, no filter', { table: 'payments', filters: {}, idFilter: '', range: {}, fiatWallet: 'all' });
await explain('payments with status failed', { table: 'payments', filters: { status: 'failed' }, idFilter: '', range: {}, fiatWallet: 'all' });
await explain('collections in a 30-day range', { table: 'collections', filters: {}, idFilter: '', range: { startDate: new Date(Date.now() - 90 * 86400_000).toISOString().slice(0, 10), endDate: new Date(Date.now() - 60 * 86400_000).toISOString().slice(0, 10) }, fiatWallet: 'all' });
await explain('payments by id prefix', { table: 'payments', filters: {}, idFilter: sampleIds[0]!.slice(0, 5), range: {}, fiatWallet: 'all' });
await app.close();
await database.close();
