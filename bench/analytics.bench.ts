// The Overview's figures (GET partner/analytics) at scale, on PostgreSQL: the search benchmark's data (1,000,000
// payments and 1,000,000 collections for Acme over 18 months, 10,000,000 rows in all; generated first when missing, by
// that benchmark's generate mode). Prints, for each period the Overview offers and for longer custom ones, the p50 and
// p95 of the service's queries and of the request over HTTP (budget p95 <= 150 ms), the rollups' sizes, the plan of
// the 30 days' breakdowns, and
// whether the figures equal the tables' (the search's exact totals below 10,000 and the export's rows) for periods
// small enough to be read whole. Exits 1 when they differ; asserts nothing else.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import { OUTCOME_STATUSES, addDays, type AnalyticsQuery, type AnalyticsReply } from '@portal/contract/analytics';
import { addDecimal, normalise } from '@portal/contract/decimal';
import type { SearchQuery } from '@portal/contract/transactions';
import { dayInZone } from '@portal/contract/time-zone';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { keyRing } from '../apps/server/src/lib/keys.ts';
import { createAnalyticsService } from '../apps/server/src/modules/analytics/analytics.service.ts';
import { createLedger } from '../apps/server/src/modules/ledger/index.ts';
import { scrollBatch, searchPage } from '../apps/server/src/modules/transactions/transactions.repository.ts';
import { adminToken, benchServerUrl, pct } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_CALLS ?? 30);
const url = process.env.BENCH_DATABASE_URL ?? benchServerUrl.toString();
const line = (name: string, value: string) => console.log(`${name.padEnd(72)} ${value}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const ACME = DEMO_PARTNERS.acme.id;

let database = await openDatabase({ kind: 'postgres', url, max: 8 }).catch(() => undefined);
const acmeRows = async () => {
  const r = await database!.executeSql('select (select count(*) from collections where partner_id = $1)::int as n', [ACME]);
  return Number((r.rows[0] as { n: number }).n);
};
if (!database || (await acmeRows().catch(() => 0)) < ROWS) {
  await database?.close();
  console.log('── analytics: loading the search benchmark data (its generate mode) ──');
  const gen = spawnSync(process.execPath, ['--import', 'tsx', 'bench/search.bench.ts'], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_SEARCH_MODE: 'generate' },
  });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
  database = await openDatabase({ kind: 'postgres', url, max: 8 });
}
const db = database.db;
await migrateToLatest(db);
await sql`vacuum analyze collections`.execute(db);
await sql`vacuum analyze payments`.execute(db);

const total = await database.executeSql('select (select count(*) from collections)::bigint + (select count(*) from payments)::bigint as n');
console.log('── analytics: the Overview on PostgreSQL ──');
line('machine: cores, model, load average (1 min) at start', `${os.cpus().length}, ${os.cpus()[0]?.model ?? '?'}, ${os.loadavg()[0]!.toFixed(2)}`);
line(
  'rows: payments + collections (all partners); for Acme in each',
  `${Number((total.rows[0] as { n: string }).n).toLocaleString('en-US')}; ${(await acmeRows()).toLocaleString('en-US')}`,
);
for (const relation of ['analytics_hours', 'analytics_days', 'analytics_durations', 'collections_period_idx']) {
  const r = await database.executeSql(`select pg_size_pretty(pg_total_relation_size('${relation}')) as size`);
  line(`size of ${relation} (migration 0043)`, (r.rows[0] as { size: string }).size);
}
for (const table of ['analytics_hours', 'analytics_days', 'analytics_durations']) {
  const r = await database.executeSql(
    `select (select count(*) from ${table} where partner_id = $1)::int as acme, (select count(*) from ${table})::bigint as rows`,
    [ACME],
  );
  const { acme, rows } = r.rows[0] as { acme: number; rows: string };
  line(`rows of ${table}: all, Acme's`, `${Number(rows).toLocaleString('en-US')}, ${acme.toLocaleString('en-US')}`);
}
const ledger = createLedger(db);
const service = createAnalyticsService({ read: () => Promise.resolve(db), ledger });
const today = dayInZone(Date.now(), 'UTC');
const month = `${today.slice(0, 7)}-01`;
const PERIODS: [string, Omit<AnalyticsQuery, 'wallet' | 'timeZone'>][] = [
  ['today (24 hours)', { from: today, to: today }],
  ['last 7 days', { from: addDays(today, -6), to: today }],
  ['last 30 days (the default)', { from: addDays(today, -29), to: today }],
  ['this month', { from: month, to: today }],
  ['custom: 92 days (the longest by day)', { from: addDays(today, -91), to: today }],
  ['custom: 366 days (the longest)', { from: addDays(today, -365), to: today }],
];

/** `RUNS` calls after 3 to warm: p50 and p95. */
async function timed(run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return `p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}`;
}

console.log(`── in the service (its queries and the ledger's), ${RUNS} calls each ──`);
for (const [label, period] of PERIODS) {
  for (const [wallet, timeZone] of [
    ['all', 'UTC'],
    ['NGN', 'Africa/Lagos'],
    // no whole UTC day in a Nairobi day: its breakdowns read a day's rows
    ['all', 'Africa/Nairobi'],
  ]) {
    line(`${label}, wallet ${wallet}, ${timeZone}`, await timed(() => service.overview(ACME, { ...period, wallet: wallet!, timeZone: timeZone! })));
  }
}

console.log(`── over HTTP (session, validation, serialisation), ${RUNS} calls each ──`);
const keys = {
  jwtSecret: keyRing(crypto.createHash('sha256').update('bench').digest()),
  encryptionKey: keyRing(crypto.createHash('sha256').update('bench-enc').digest()),
};
const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: '/tmp/portal-bench-http' }),
  database: database,
  keys,
  boss: null,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
const token = await adminToken(db, keys.jwtSecret, ACME, DEMO_USERS[0]!);
for (const [label, period] of PERIODS) {
  const query = new URLSearchParams({ ...period, wallet: 'all', timeZone: 'Africa/Nairobi' }).toString();
  line(
    `${label}, all wallets, Africa/Nairobi`,
    await timed(async () => {
      const res = await fetch(`${base}/partner/analytics?${query}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`analytics answered ${res.status}`);
    }),
  );
}
await app.close();

console.log("── the plan of the 30 days' breakdowns (analytics_days) ──");
const plan = await database.executeSql(
  `explain (analyze, buffers) select dim, key, outcome, sum(n), sum(amount_usd) from analytics_days
   where partner_id = $1 and day >= $2::date and day < $3::date group by 1, 2, 3`,
  [ACME, addDays(today, -29), today],
);
for (const r of plan.rows as { 'QUERY PLAN': string }[]) console.log(`  ${r['QUERY PLAN']}`);

console.log("── the figures against the tables' (exact totals below 10,000; the export's rows for the amounts) ──");
let differ = 0;
const SUCCEEDED = OUTCOME_STATUSES.succeeded.join(',');
async function tableVolume(table: 'collections' | 'payments', q: Omit<SearchQuery, 'table'>) {
  const query = { ...q, table };
  const page = await searchPage(db, ACME, query, 0, 1);
  let amount = '0';
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await scrollBatch(db, ACME, query, after, 2500);
    for (const r of rows) amount = addDecimal(amount, q.fiatWallet === 'NGN' ? r.amount : r.converted_amount);
    const last = rows.at(-1);
    if (rows.length < 2500 || !last) break;
    after = { createdAt: last.created_at.toISOString(), id: last.id };
  }
  return { count: page.total, amount: normalise(amount, 2), exact: page.totalRelation === 'eq' };
}
for (const [label, period, wallet, timeZone] of [
  ['yesterday', { from: addDays(today, -1), to: addDays(today, -1) }, 'all', 'UTC'],
  ['the 3 days before', { from: addDays(today, -4), to: addDays(today, -2) }, 'all', 'Africa/Nairobi'],
  ['a week of the NGN wallet, 40 days ago', { from: addDays(today, -46), to: addDays(today, -40) }, 'NGN', 'Africa/Lagos'],
] as const) {
  const reply: AnalyticsReply = await service.overview(ACME, { ...period, wallet, timeZone });
  for (const table of ['collections', 'payments'] as const) {
    const t = await tableVolume(table, {
      filters: { status: SUCCEEDED },
      idFilter: '',
      range: { startDate: period.from, endDate: period.to },
      fiatWallet: wallet,
      timeZone,
    });
    const figure = reply.totals[table].current;
    const same = t.exact && figure.count === t.count && figure.amount === t.amount;
    if (!same) differ++;
    line(`${label}, ${table}: figure ${figure.count} / ${figure.amount}, table ${t.count} / ${t.amount}`, same ? 'equal' : 'DIFFER');
  }
}
await database.close();
if (differ) {
  console.error(`${differ} figures differ from their tables`);
  process.exit(1);
}
