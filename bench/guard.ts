// The performance guard (npm run perf:guard; CI runs it after the tests). Two builds side by side in one run: this
// checkout and a base commit, each its own server process (its own code, its own migrations, its own seed of
// PERF_ROWS rows per transaction table per demo partner) on a database of its own on one PostgreSQL server. Rounds
// alternate between the builds; each round times over HTTP, as Acme's admin: random searches, id searches, GET
// partner/balance, GET partner/accounts, and withdrawals from 4 clients for 3 s. A figure (p50 or p95) is a regression
// when every round of this build is slower than every round of the base, by more than 15% and 0.5 ms: beyond what
// the two builds' own spread allows. It then exits 1. Budgets stay in the benchmarks; this compares builds.
//
// PERF_BASE     the base commit (default: the newest commit made at least 3 hours before HEAD; the commits pushed
//               together are made within 3 hours of each other, so that one had landed before them)
// PERF_HEAD     a commit to measure instead of this checkout (to try the guard on a known change)
// PERF_ROWS     rows per transaction table per demo partner (default 20,000)
// PERF_ROUNDS   measured rounds per build (default 3; one more round before them warms both up)
// The server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server's postgres database.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { generateDemoAddress } from '../apps/server/src/lib/deposit-addresses.ts';
import { httpClient } from '../apps/server/test/http-client.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/server-process.ts';
import { pct, searchQueries, withAdminClient, withdrawalLoop } from './support.ts';
import { SERVER_PATHS, addWorktree, git, removeWorktree } from '../scripts/worktree.mjs';

const root = path.resolve(import.meta.dirname, '..');
const ROWS = Number(process.env.PERF_ROWS ?? 20_000);
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const serverUrl = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const SLOWER = 1.15;
const SLACK_MS = 0.5;

function baseCommit(): string | undefined {
  if (process.env.PERF_BASE) return git('rev-parse', '--verify', `${process.env.PERF_BASE}^{commit}`);
  const headTime = Number(git('log', '-1', '--format=%ct', 'HEAD'));
  return git('rev-list', '-1', `--before=${headTime - 3 * 3600}`, 'HEAD') || undefined;
}

type Figures = Record<string, number>;
type Build = {
  label: string;
  rev: string;
  dir: string;
  database: string;
  dataDir: string;
  server?: ServerProcess;
  api: string;
  headers: Record<string, string>;
  address: string;
  ids: string[];
  rounds: Figures[];
};

const admin = <T>(fn: (c: pg.Client) => Promise<T>, database = 'postgres') => withAdminClient(fn, { server: serverUrl, database });

const ACME_ADMIN = 'admin@acme.test';

/** The build's own migrations and seed on a database of its own, its server started, Acme's admin signed in and funded. */
async function start(b: Build) {
  await admin((c) => c.query(`create database ${b.database}`));
  const u = new URL(serverUrl);
  u.pathname = `/${b.database}`;
  const env = {
    DATABASE_URL: u.toString(),
    DATA_DIR: b.dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    MAIL_CATCHER: 'false',
    DEMO_LIVE: 'false',
    WITHDRAWAL_MAX_USD: '1000000.00',
  };
  const t0 = performance.now();
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'seed', '--transactions', String(ROWS)], {
    cwd: path.join(b.dir, 'apps/server'),
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`${b.label}: the seed failed\n${seeded.stdout}\n${seeded.stderr}`);
  // as autovacuum leaves a database some minutes after a load: both builds are measured settled, whatever their seed did
  await admin((c) => c.query('vacuum analyze'), b.database);
  console.log(`${b.label} (${b.rev.slice(0, 10)}): migrated and seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  b.server = await startServerProcess(env, path.join(b.dir, 'apps/server'));
  b.api = `${b.server.url}/api/v1`;
  const client = httpClient(b.server.url);
  const { user } = await client.signIn(ACME_ADMIN);
  b.headers = await client.mutatingHeaders();
  b.address = generateDemoAddress('TRC20').address;
  await admin(async (c) => {
    await c.query(
      `insert into settlement_wallets (partner_id, id, address, network, tag, currencies, status, travel_rule_name, travel_rule_registration_number, created_by, created_by_name)
       values ($1, $2, $3, 'TRC20', null, '{USDT}', 'enabled', 'Guard Ltd', 'RC-1', $4, 'guard')`,
      [user.partnerId, crypto.randomUUID(), b.address, user.id],
    );
    await c.query(`insert into ledger_entries (partner_id, currency, amount, kind, reference) values ($1, 'USD', '100000000.00', 'bench_funding', $2)`, [
      user.partnerId,
      crypto.randomUUID(),
    ]);
    const ids = await c.query<{ id: string }>('select id from payments where partner_id = $1 order by id limit 100', [user.partnerId]);
    b.ids = ids.rows.map((r) => r.id);
  }, b.database);
}

/** p50 and p95 of `n` calls made one after the other. */
async function timed(name: string, n: number, call: (i: number) => Promise<Response>, into: Figures) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await call(i);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
  }
  times.sort((a, b) => a - b);
  into[`${name} p50`] = pct(times, 50);
  into[`${name} p95`] = pct(times, 95);
}

const queries = (() => {
  const { randomQuery } = searchQueries(7);
  return Array.from({ length: 150 }, randomQuery);
})();

async function round(b: Build): Promise<Figures> {
  const f: Figures = {};
  const post = (p: string, body: unknown) => fetch(`${b.api}${p}`, { method: 'POST', headers: b.headers, body: JSON.stringify(body) });
  const get = (p: string) => fetch(`${b.api}${p}`, { headers: { authorization: b.headers.authorization!, cookie: b.headers.cookie! } });
  await timed('search', queries.length, (i) => post('/transactions/search', { ...queries[i]!.q, startIndex: queries[i]!.startIndex, size: 10 }), f);
  await timed(
    'id search',
    60,
    (i) => {
      const id = b.ids[i % b.ids.length]!;
      return post('/transactions/search', {
        table: 'payments',
        filters: {},
        idFilter: [id.slice(0, 4), id.slice(0, 8), id][i % 3],
        range: {},
        fiatWallet: 'all',
      });
    },
    f,
  );
  await timed('GET partner/balance', 40, () => get('/partner/balance'), f);
  await timed('GET partner/accounts', 40, () => get('/partner/accounts'), f);
  const w = await withdrawalLoop(
    b.api,
    Array.from({ length: 4 }, () => ({ headers: b.headers, address: b.address })),
    3,
    '10.00',
  );
  if (w.failures) throw new Error(`${b.label}: ${w.failures} of ${w.count} withdrawals failed`);
  f['withdrawal p50'] = w.p50;
  f['withdrawal p95'] = w.p95;
  return f;
}

const headRev = git('rev-parse', 'HEAD');
if (git('rev-parse', '--is-shallow-repository') === 'true' && spawnSync('git', ['fetch', '--unshallow', '--quiet'], { cwd: root }).status !== 0) {
  // said, not hidden: a shallow clone whose origin cannot give the history has no base to measure against
  console.log('perf guard: SKIPPED, this clone is shallow and its history cannot be fetched: there is no base commit to compare with');
  process.exit(0);
}
const base = baseCommit();
if (!base) {
  console.log('perf guard: no commit 3 hours older than HEAD; nothing to compare with');
  process.exit(0);
}
const thisRev = process.env.PERF_HEAD ? git('rev-parse', '--verify', `${process.env.PERF_HEAD}^{commit}`) : headRev;
const dirty = !process.env.PERF_HEAD && git('status', '--porcelain', '--', ...SERVER_PATHS) !== '';
if (!dirty && spawnSync('git', ['diff', '--quiet', base, thisRev, '--', ...SERVER_PATHS], { cwd: root }).status === 0) {
  console.log(`perf guard: the server's code is the same in ${base.slice(0, 10)} and ${thisRev.slice(0, 10)} (${SERVER_PATHS.join(', ')}); nothing to compare`);
  process.exit(0);
}

const suffix = crypto.randomBytes(3).toString('hex');
const made: string[] = [];
const build = (label: string, rev: string, dir: string): Build => ({
  label,
  rev,
  dir,
  database: `portal_guard_${label.replace(/\W/g, '')}_${suffix}`,
  dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-guard-data-')),
  api: '',
  headers: {},
  address: '',
  ids: [],
  rounds: [],
});
let failed = false;
const builds: Build[] = [];
try {
  const baseDir = addWorktree(base, 'portal-guard-');
  made.push(baseDir);
  let thisDir = root;
  if (process.env.PERF_HEAD) {
    thisDir = addWorktree(thisRev, 'portal-guard-');
    made.push(thisDir);
  }
  builds.push(build('base', base, baseDir), build('this', thisRev, thisDir));
  console.log(`── performance guard: ${ROWS.toLocaleString('en-US')} rows per table per demo partner, ${ROUNDS} rounds ──`);
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(2)}`);
  for (const b of builds) await start(b);
  for (const b of builds) await round(b); // warm-up, not counted
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which build goes first, so that neither always runs after the other's withdrawals
    for (const b of r % 2 ? [...builds].reverse() : builds) b.rounds.push(await round(b));
  }
  const [a, b] = builds as [Build, Build];
  const width = Math.max(14, 7 * ROUNDS + 3);
  const fmt = (xs: number[]) =>
    xs
      .map((x) => x.toFixed(1).padStart(7))
      .join('')
      .padEnd(width);
  console.log(`\n${'figure (ms)'.padEnd(26)}${'base rounds'.padEnd(width)}${'this build'.padEnd(width)}verdict`);
  for (const name of Object.keys(a.rounds[0]!)) {
    const before = a.rounds.map((f) => f[name]!);
    const after = b.rounds.map((f) => f[name]!);
    const regressed = Math.min(...after) > Math.max(...before) * SLOWER + SLACK_MS;
    if (regressed) failed = true;
    console.log(`${name.padEnd(26)}${fmt(before)}${fmt(after)}${regressed ? 'SLOWER in every round' : 'ok'}`);
  }
  console.log(
    failed
      ? `\nperf guard: ${thisRev.slice(0, 10)} is slower than ${base.slice(0, 10)} beyond the spread of their rounds`
      : `\nperf guard: no figure of ${thisRev.slice(0, 10)} is slower than ${base.slice(0, 10)} in every round`,
  );
} finally {
  for (const b of builds) {
    await b.server?.stop();
    await admin((c) => c.query(`drop database if exists ${b.database} with (force)`));
    fs.rmSync(b.dataDir, { recursive: true, force: true });
  }
  for (const dir of made) removeWorktree(dir);
}
process.exit(failed ? 1 : 0);
