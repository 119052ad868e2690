import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import type { DB } from '../apps/server/src/db/schema.ts';
import { seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { createBoss } from '../apps/server/src/jobs/boss.ts';
import { loadKeys, randomKeys, type KeyRing, type Keys } from '../apps/server/src/lib/keys.ts';
import type { SearchQuery } from '@portal/contract/transactions';
import { generateDemoAddress } from '../apps/server/src/lib/deposit-addresses.ts';
import { signAccessToken } from '../apps/server/src/lib/tokens.ts';

type BenchUser = { id: string; email: string; name: string };

/** An access token of a fresh session of a demo admin (the session row is what a sign-in would have written). */
export async function adminToken(db: Kysely<DB>, jwtSecret: KeyRing, partnerId: string, user: BenchUser): Promise<string> {
  const sid = crypto.randomUUID();
  await db
    .insertInto('auth_sessions')
    .values({ partner_id: partnerId, id: sid, user_id: user.id, expires_at: new Date(Date.now() + 12 * 3600_000) })
    .execute();
  return signAccessToken(jwtSecret, { sub: user.id, pid: partnerId, role: 'admin', email: user.email, name: user.name, sid });
}

/** The request-forgery token of the access token's session and the signed cookie it belongs to, as a browser holds them. */
export async function csrfHeaders(apiBase: string, accessToken: string): Promise<Record<string, string>> {
  const res = await fetch(`${apiBase}/security/csrf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: '{}',
  });
  const { csrf } = (await res.json()) as { csrf: string };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { 'x-csrf-token': csrf, cookie };
}

/** The PostgreSQL server the benchmarks load (BENCH_DATABASE_URL; default the local server's portal_bench). */
export const benchServerUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench');

/** Runs `fn` on a connection to a database of the server (default `postgres`: to create or drop the benchmark's databases). */
export async function withAdminClient<T>(fn: (c: pg.Client) => Promise<T>, { server = benchServerUrl, database = 'postgres' } = {}): Promise<T> {
  const u = new URL(server);
  u.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A scratch database on the benchmark server (`portal_bench_<label>_…`, a pool of `max`), migrated and seeded with the
 * demo data (no transactions), beside a temporary data directory: the keys it was seeded with, and `drop` to close
 * the database, drop it and remove the directory.
 */
export async function scratchDemoDatabase(label: string, max = 10) {
  const name = `portal_bench_${label}_${crypto.randomBytes(4).toString('hex')}`;
  await withAdminClient((c) => c.query(`create database ${name}`));
  const url = new URL(benchServerUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${label}-`));
  const drop = async () => {
    await database.close();
    await withAdminClient((c) => c.query(`drop database if exists ${name} with (force)`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(database.db);
    const keys = randomKeys();
    await seedDemo(database.db, keys.encryptionKey, { transactions: false });
    return { database, dataDir, keys, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}

/**
 * The app on a scratch database with its job queue (`queue` makes the queue the benchmark sends work to), listening on
 * a free port: its port, its API's base URL, and `close` to stop the app and the queue.
 */
export async function listeningApp(
  scratch: { database: Database; dataDir: string; keys: Keys },
  env: Record<string, string>,
  queue: (boss: ReturnType<typeof createBoss>) => Promise<unknown>,
) {
  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: scratch.dataDir, ...env });
  const boss = createBoss(scratch.database);
  await boss.start();
  await queue(boss);
  const app = await buildApp({ config, database: scratch.database, keys: scratch.keys, boss });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    app,
    boss,
    port,
    base: `http://127.0.0.1:${port}/api/v1`,
    async close() {
      await app.close();
      await boss.stop({ graceful: false, wait: true });
    },
  };
}

/** The headers of a signed-in admin's mutating call to `base`: JSON, a fresh session's access token, its request-forgery token and cookie. */
export async function adminHeaders(database: Database, keys: Keys, base: string, partnerId: string, user: BenchUser) {
  const token = await adminToken(database.db, keys.jwtSecret, partnerId, user);
  return { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(await csrfHeaders(base, token)) };
}

/** A bare Fastify hello-world on a free port, the baseline of the throughput figures: its URL, and the server to close. */
export async function helloWorld() {
  const hello = Fastify();
  // eslint-disable-next-line @typescript-eslint/require-await -- the baseline is Fastify's async handler, as the portal's are
  hello.get('/hello', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(hello.server.address() as { port: number }).port}/hello`, server: hello };
}

/** Requests a second (average) of 20 connections for 5 s, their p50 and p99 latency in ms, and the errors and non-2xx answers. */
export async function rps(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 20, duration: 5, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * The app with no job queue on an embedded database in a new data directory (migrated, the demo data with its
 * transactions, keys from the configuration), listening on a free port: its origin, and `close` for the app and the database.
 */
export async function embeddedApp(label: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${label}-`));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...env });
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
  await migrateToLatest(database.db);
  const keys = await loadKeys(config);
  await seedDemo(database.db, keys.encryptionKey);
  const app = await buildApp({ config, database, keys, boss: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    keys,
    origin: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** An enabled TRC20 USDT wallet and a balance for a partner, as the review and a top-up would leave them. */
export async function fund(database: Database, partnerId: string, createdBy: string, usd: string) {
  const { address } = generateDemoAddress('TRC20');
  await database.db
    .insertInto('settlement_wallets')
    .values({
      partner_id: partnerId,
      id: crypto.randomUUID(),
      address,
      network: 'TRC20',
      tag: null,
      currencies: ['USDT'],
      status: 'enabled',
      travel_rule_name: 'Bench Ltd',
      travel_rule_registration_number: 'RC-1',
      created_by: createdBy,
      created_by_name: 'bench',
      reviewed_by: null,
      reviewed_by_name: null,
      denial_reason: null,
      deletion_reason: null,
      deleted_by: null,
    })
    .execute();
  await database.db
    .insertInto('ledger_entries')
    .values({ partner_id: partnerId, currency: 'USD', amount: usd, kind: 'bench_funding', reference: crypto.randomUUID() })
    .execute();
  return address;
}

/** The p-th percentile of sorted numbers. */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * `clients` loops, each making `call` one after the other for `seconds`: how many calls, their latencies' p50, p95 and
 * p99 in ms, each status's count ('no reply' when the call threw), and the seconds they took in all.
 */
export async function closedLoops(clients: number, seconds: number, call: () => Promise<Response>) {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        let status = 'no reply';
        try {
          const res = await call();
          await res.arrayBuffer();
          status = String(res.status);
        } catch {
          // counted as no reply
        }
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, elapsed, p50: pct(latencies, 50), p95: pct(latencies, 95), p99: pct(latencies, 99), statuses };
}

export type WithdrawalClient = { headers: Record<string, string>; address: string };

/** `clients` loops, each sending withdrawals one after the other for `seconds`; latencies in ms. */
export async function withdrawalLoop(base: string, clients: WithdrawalClient[], seconds: number, amount: string) {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await fetch(`${base}/partner/settlement/withdrawal`, {
          method: 'POST',
          headers: c.headers,
          body: JSON.stringify({
            amount,
            sequenceId: crypto.randomUUID(),
            source: 'dashboard',
            walletAddress: c.address,
            cryptoCurrency: 'USDT',
            cryptoNetwork: 'TRC20',
          }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (res.status !== 201) failures += 1;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  // CPU of this process (server and load generator together) per request: steadier than latency on a shared machine
  const cpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length);
  return {
    count: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: pct(latencies, 50),
    p95: pct(latencies, 95),
    p99: pct(latencies, 99),
    failures,
    cpuMs,
  };
}

/** A search as the portal sends it: the query and the page's first row. */
export type SearchShape = { q: SearchQuery; startIndex: number };

/**
 * Random searches of the kinds the portal sends (status, country, wallet, a 30-60 day range, pages up to the 10,000
 * window), from a seeded generator: the same seed gives the same queries, before and after a change.
 */
export function searchQueries(seed: number) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rnd = (n: number) => Math.floor(random() * n);
  const STATUSES = ['complete', 'pending', 'failed', 'processing', 'expired', 'refunded'];
  const COUNTRIES = ['NG', 'KE', 'GH', 'ZA', 'UG', 'TZ', 'RW'];
  /** The date `d` days ago (YYYY-MM-DD). */
  const day = (d: number) => new Date(Date.now() - d * 86400_000).toISOString().slice(0, 10);
  const randomQuery = (): SearchShape => {
    const table = rnd(2) ? 'payments' : 'collections';
    const filters: Record<string, string> = {};
    if (rnd(2)) filters.status = STATUSES[rnd(STATUSES.length)]!;
    if (rnd(3) === 0) filters.country = COUNTRIES[rnd(COUNTRIES.length)]!;
    const from = 1 + rnd(500);
    const range = rnd(3) === 0 ? { startDate: day(from + rnd(60)), endDate: day(from) } : {};
    const fiatWallet = rnd(4) === 0 ? ['USD', 'NGN', 'KES'][rnd(3)]! : 'all';
    return { q: { table, filters, idFilter: '', range, fiatWallet }, startIndex: rnd(4) === 0 ? rnd(999) * 10 : 0 };
  };
  return { rnd, randomQuery, day };
}
