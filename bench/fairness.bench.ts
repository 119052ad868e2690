// One partner's storm against another partner's reads, on PostgreSQL over HTTP (a server process, its pool of 10
// connections): Kora's searches (2 clients in closed loops, first pages) measured quiet, then while Acme runs
// BENCH_STORM clients (default 160) of deep searches (page 100 of 100 rows: the database walks 10,000 rows for each),
// once with the fair share off (FAIR_SHARE_PER_PARTNER=0) and once as shipped (5 at once per partner, the rest
// waiting their turn, 429 after 4 s); BENCH_SHARES=0,5,2 compares other shares. Goal: Kora's p95 during the storm within 2x its quiet p95. Acme's answers are
// counted by status. The storm runs in a process of its own (bench/storm-client.ts); BENCH_STORM_NICE (default 0)
// is its CPU priority: 0 competes for these two cores like the measuring client; 19 starves the storm itself on two
// busy cores (it then sends a third fewer requests), so it stands for another host only on a machine with cores to spare. A scratch database on the server of BENCH_DATABASE_URL,
// dropped after. Asserts nothing.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import os from 'node:os';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, DEMO_USERS, seedDemo, seedManyTransactions } from '../apps/server/src/db/seed/demo.ts';
import { keyRing } from '../apps/server/src/lib/keys.ts';
import { startServerProcess } from '../apps/server/test/server-process.ts';
import { adminToken, benchServerUrl, closedLoops, withAdminClient as admin } from './support.ts';

const STORM = Number(process.env.BENCH_STORM ?? 160);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const STORM_NICE = Number(process.env.BENCH_STORM_NICE ?? 0);
const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;

const name = `portal_bench_fairness_${crypto.randomBytes(4).toString('hex')}`;
await admin((c) => c.query(`create database ${name}`));
const url = new URL(benchServerUrl);
url.pathname = `/${name}`;
const secrets = { JWT_SECRET: crypto.randomBytes(32).toString('base64'), ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64') };
const jwt = keyRing(Buffer.from(secrets.JWT_SECRET, 'base64'));

type Loops = Awaited<ReturnType<typeof closedLoops>>;

/** Acme's storm in a child process at priority STORM_NICE, 3 s longer than Kora's reads (which start 1.5 s in). */
function storm(serverUrl: string, token: string): Promise<Loops> {
  const child = spawn('nice', ['-n', String(STORM_NICE), process.execPath, '--import', 'tsx', path.join(import.meta.dirname, 'storm-client.ts')], {
    env: { ...process.env, STORM_URL: serverUrl, STORM_TOKEN: token, STORM_CLIENTS: String(STORM), STORM_SECONDS: String(SECONDS + 3) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Loops) : reject(new Error(`the storm client exited with ${code}`)),
    ),
  );
}

const show = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ');

try {
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 4 });
  await migrateToLatest(database.db);
  await seedDemo(database.db, keyRing(Buffer.from(secrets.ENCRYPTION_KEY, 'base64')), { transactions: false });
  const t0 = performance.now();
  await seedManyTransactions(database.db, ROWS);
  const token = async (partnerId: string, email: string) => {
    const user = DEMO_USERS.find((u) => u.email === email)!;
    return adminToken(database.db, jwt, partnerId, { id: user.id, email: user.email, name: user.name });
  };
  const acme = await token(DEMO_PARTNERS.acme.id, 'admin@acme.test');
  const kora = await token(DEMO_PARTNERS.kora.id, 'admin@kora.test');
  await database.close();

  console.log(`── fair share: Kora's searches while Acme storms (${STORM} clients, nice ${STORM_NICE}), a server process on PostgreSQL ──`);
  line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);
  line('rows per transaction table per demo partner', `${ROWS.toLocaleString('en-US')} (made in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  // BENCH_SHARES: the FAIR_SHARE_PER_PARTNER values to compare (0: off)
  for (const perPartner of (process.env.BENCH_SHARES ?? '0,5').split(',')) {
    const label = perPartner === '0' ? 'fair share off (FAIR_SHARE_PER_PARTNER=0)' : `fair share of ${perPartner} per partner (4 s wait)`;
    const server = await startServerProcess({
      NODE_ENV: 'production',
      DATABASE_URL: url.toString(),
      ...secrets,
      METRICS_TOKEN: crypto.randomBytes(16).toString('hex'),
      SMTP_URL: 'smtp://127.0.0.1:9',
      DEMO: 'false',
      FAIR_SHARE_PER_PARTNER: perPartner,
    });
    try {
      const search = (bearer: string, body: object) =>
        fetch(`${server.url}/api/v1/transactions/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const koraReads = () => closedLoops(2, SECONDS, () => search(kora, { table: 'payments', size: 20 }));
      await closedLoops(2, 2, () => search(kora, { table: 'payments', size: 20 }));
      const quiet = await koraReads();
      // the storm's process needs a moment to start: Kora's reads begin once it is under way
      const stormed = storm(server.url, acme);
      await new Promise((r) => setTimeout(r, 1500));
      const during = await koraReads();
      const stormResult = await stormed;
      console.log(`\n  ${label}`);
      line('  Kora quiet: searches, p50, p95', `${quiet.count}, ${ms(quiet.p50)}, ${ms(quiet.p95)} (${show(quiet.statuses)})`);
      line('  Kora during the storm: searches, p50, p95', `${during.count}, ${ms(during.p50)}, ${ms(during.p95)} (${show(during.statuses)})`);
      line('  Kora p95 during / quiet', `${(during.p95 / quiet.p95).toFixed(2)}x (goal <= 2x)`);
      line("  Acme's storm: answers, p50, p95", `${stormResult.count}, ${ms(stormResult.p50)}, ${ms(stormResult.p95)} (${show(stormResult.statuses)})`);
    } finally {
      await server.stop();
    }
  }
} finally {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}
