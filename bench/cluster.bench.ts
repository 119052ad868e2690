// The deployment of `npm run cluster` measured on this machine: a PostgreSQL 15 primary and a streaming replica
// (behind the cluster's TCP proxy), PgBouncer in transaction pooling, three portal instances and HAProxy, started in a
// temporary CLUSTER_DIR on ports from 18190 (beside a developer's cluster on 8090 and the cluster test's on 18090),
// stopped and purged at the end, also after a failure or Ctrl-C.
//   1. authenticated reads (GET /api/v1/partner/accounts, a bearer token) through HAProxy (three instances, each on
//      PgBouncer, which reaches the leader through HAProxy's leader address) against one standalone server process
//      connected directly to the primary's own port (no PgBouncer, no HAProxy): requests/s, latency, the ratio, and
//      the CPU milliseconds one request costs in each part, with what the balancer and the pooler add (goal: at most
//      25% over the app talking to the database directly). The cluster runs with CLUSTER_DB_ROUTES=direct: the
//      balancer reaches the nodes' own ports, as on several hosts, not through the TCP proxy that only fault tests need;
//   2. the same load on instance-1 alone (still on PgBouncer) against the three behind HAProxy;
//   3. the replica's replay delay while withdrawals run through the balancer: every ~100 ms the primary's
//      pg_current_wal_lsn(), then the replica polled until pg_last_wal_replay_lsn() reaches it; and the same delay
//      with no load (and after one small commit of its own) as the baseline.
// The load generator (autocannon, or the fetch loop of the withdrawals) runs in this process, on the same cores as
// everything it measures. Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { generateDemoAddress } from '../apps/server/src/lib/deposit-addresses.ts';
import { httpClient } from '../apps/server/test/http-client.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/server-process.ts';
import { closedLoops, pct } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = 2;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const HOST = '127.0.0.1';
const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);
const note = (text: string) => console.log(`  note: ${text}`);
const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const began = performance.now();

// a cluster of its own, readable by the postgres user the database servers run as; the variables are read when the
// cluster script is imported
const clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-cluster-'));
fs.chmodSync(clusterDir, 0o755);
process.env.CLUSTER_DIR = clusterDir;
process.env.CLUSTER_PORT = process.env.BENCH_CLUSTER_PORT ?? '18190';
// the production path: no TCP proxy between the balancer and the nodes (no fault is made here)
process.env.CLUSTER_DB_ROUTES = 'direct';
// every server of the run (the three instances and the standalone one) logs warnings only: no line per request
process.env.LOG_LEVEL = 'warn';
const cluster = await import('../scripts/cluster.mjs');

let standalone: ServerProcess | undefined;
let cleaning: Promise<void> | undefined;
function cleanup() {
  cleaning ??= (async () => {
    await standalone?.stop().catch(() => undefined);
    await cluster.stop({ purge: true }).catch((err: unknown) => console.error(`stopping the cluster failed: ${String(err)}`));
    fs.rmSync(clusterDir, { recursive: true, force: true });
  })();
  return cleaning;
}
// the cluster's processes are detached (Ctrl-C does not reach them): stop them on a signal too
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the cluster...`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// CPU of each part, from /proc (jiffies of the processes alive at both ends of a window)

const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function readProc(pid: number): { ppid: number; jiffies: number; cmd: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    return { ppid: Number(f[1]), jiffies: Number(f[11]) + Number(f[12]), cmd };
  } catch {
    return undefined;
  }
}

/** The box's CPU in jiffies: busy (user, nice, system, irq, softirq; not idle, iowait nor steal), of which irq and softirq, and steal. */
function boxCpu() {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const v = cpu!.trim().split(/\s+/).slice(1).map(Number);
  const at = (i: number) => v[i] ?? 0;
  return { busy: at(0) + at(1) + at(2) + at(5) + at(6), irq: at(5) + at(6), steal: at(7) };
}

/** Jiffies of every process now. */
function allProcesses(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const j = readProc(Number(entry))?.jiffies;
    if (j !== undefined) out.set(Number(entry), j);
  }
  return out;
}

type Groups = Record<string, Set<number>>;

/** The processes of each part, by pid. */
async function parts(): Promise<Groups> {
  const s = await cluster.status();
  if (!('instances' in s)) throw new Error('the cluster is not running');
  const groups: Groups = {
    'load generator (this process)': new Set([process.pid]),
    'portal instances': new Set(s.instances.map((i) => i.pid).filter((p): p is number => Boolean(p))),
    'standalone server': new Set(),
    PgBouncer: new Set(s.pooler.pid ? [s.pooler.pid] : []),
    'PostgreSQL (all nodes)': new Set(),
    'Patroni and etcd': new Set([...s.nodes.map((n) => n.patroni.pid), ...s.etcd.map((m) => m.pid)].filter((p): p is number => Boolean(p))),
    HAProxy: new Set(s.haproxy.pid ? [s.haproxy.pid] : []),
    'TCP proxy': new Set(s.proxy.pid ? [s.proxy.pid] : []),
    'mail sink': new Set(s.mail.pid ? [s.mail.pid] : []),
  };
  const known = new Set(Object.values(groups).flatMap((g) => [...g]));
  // PostgreSQL: each node's postmaster and its children (backends, WAL sender and writer, ...), whatever they call
  // themselves on their command line
  const postmasters = new Set(s.nodes.map((d) => d.pid).filter((p): p is number => Boolean(p)));
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const p = readProc(pid);
    if (!p || known.has(pid)) continue;
    if (postmasters.has(pid) || postmasters.has(p.ppid)) groups['PostgreSQL (all nodes)']!.add(pid);
    // the standalone server is a child of this process (so are the detached instances, known above)
    else if (p.ppid === process.pid && p.cmd.includes('src/server.ts')) groups['standalone server']!.add(pid);
  }
  return groups;
}

/**
 * Starts a window; its end gives each part's CPU in % of one core, then: other programs (every other process alive
 * at both ends), the kernel's interrupt work (loopback networking is much of it), what is left unattributed
 * (processes that started or ended within the window), and the whole box.
 */
async function cpuWindow() {
  const groups = await parts();
  const before = allProcesses();
  const box0 = boxCpu();
  const t0 = performance.now();
  return () => {
    const after = allProcesses();
    const box1 = boxCpu();
    const seconds = (performance.now() - t0) / 1000;
    const share = (jiffies: number) => (100 * jiffies) / TICK / seconds;
    const delta = (pid: number) => {
      const j0 = before.get(pid);
      const j1 = after.get(pid);
      return j0 !== undefined && j1 !== undefined ? j1 - j0 : 0;
    };
    const ours = new Set<number>();
    const out: [string, number][] = [];
    for (const [name, pids] of Object.entries(groups)) {
      let j = 0;
      for (const pid of pids) {
        j += delta(pid);
        ours.add(pid);
      }
      if (j > 0) out.push([name, share(j)]);
    }
    let inParts = 0;
    let other = 0;
    for (const pid of before.keys()) {
      if (ours.has(pid)) inParts += delta(pid);
      else other += delta(pid);
    }
    const busy = box1.busy - box0.busy;
    const irq = box1.irq - box0.irq;
    return {
      parts: out,
      other: share(other),
      irq: share(irq),
      unattributed: share(Math.max(0, busy - irq - inParts - other)),
      box: share(busy),
      steal: share(box1.steal - box0.steal),
    };
  };
}

type Cpu = ReturnType<Awaited<ReturnType<typeof cpuWindow>>>;
/** CPU milliseconds a request cost in a part: its % of one core is 10 ms of CPU per second, shared by rps requests. */
const msPerRequest = (c: Cpu, rps: number, part: string) => ((c.parts.find(([n]) => n === part)?.[1] ?? 0) * 10) / rps;

/** The CPU one request cost in each part on the balanced path (a) and straight (b), and what the balancer and pooler add. */
function showCpuPerRequest(what: string, via: { cpu: Cpu; rps: number }, straight: { cpu: Cpu; rps: number }) {
  const a = (part: string) => msPerRequest(via.cpu, via.rps, part);
  const b = (part: string) => msPerRequest(straight.cpu, straight.rps, part);
  const perRequest = (v: number) => `${v.toFixed(3)} ms`;
  line(
    `  CPU per request, ${what}, (a)`,
    `balancer ${perRequest(a('HAProxy'))}, instances ${perRequest(a('portal instances'))}, pooler ${perRequest(a('PgBouncer'))}, ` +
      `database ${perRequest(a('PostgreSQL (all nodes)'))}, TCP proxy ${perRequest(a('TCP proxy'))}`,
  );
  line(`  CPU per request, ${what}, (b)`, `server ${perRequest(b('standalone server'))}, database ${perRequest(b('PostgreSQL (all nodes)'))}`);
  const direct = b('standalone server') + b('PostgreSQL (all nodes)');
  const added = a('HAProxy') + a('PgBouncer');
  line(
    `  balancer + pooler over (b)'s app + database, ${what}`,
    `${perRequest(added)} over ${perRequest(direct)}: +${((100 * added) / direct).toFixed(0)}% (goal <= 25%)`,
  );
}
const showCpu = (title: string, c: Cpu) => {
  line(title, c.parts.map(([n, v]) => `${n} ${v.toFixed(0)}%`).join(', '));
  line(
    '',
    `other programs ${c.other.toFixed(0)}%, kernel irq/softirq ${c.irq.toFixed(0)}%, unattributed ${c.unattributed.toFixed(0)}%; box busy ${c.box.toFixed(0)}% of ${os.cpus().length * 100}%` +
      (c.steal >= 1 ? ` (steal ${c.steal.toFixed(0)}%)` : ''),
  );
};

// ---------------------------------------------------------------------------------------------------------------
// loads

type Reads = { rps: number; total: number; p50: number; p975: number; p99: number; non2xx: number; errors: number; cpu: Cpu };

/**
 * autocannon, a warm-up then the measured run: GET /api/v1/partner/accounts (a kept balance, its rows cached for a few
 * seconds: little work of its own), or a search (POST /api/v1/transactions/search, a first page of 20 payments).
 */
async function reads(base: string, token: string, shape: 'accounts' | 'search' = 'accounts'): Promise<Reads> {
  const options =
    shape === 'accounts'
      ? { url: `${base}/api/v1/partner/accounts`, headers: { authorization: `Bearer ${token}` } }
      : {
          url: `${base}/api/v1/transactions/search`,
          method: 'POST' as const,
          body: JSON.stringify({ table: 'payments', size: 20 }),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        };
  await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP });
  const cpu = await cpuWindow();
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  return {
    rps: r.requests.total / r.duration,
    total: r.requests.total,
    p50: r.latency.p50,
    p975: r.latency.p97_5,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    cpu: cpu(),
  };
}

const showReads = (title: string, r: Reads) =>
  line(
    title,
    `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p97.5 ${r.p975} ms, p99 ${r.p99} ms (${r.total.toLocaleString('en-US')} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );

/** `clients` loops sending withdrawals (a new sequenceId each) one after the other for `seconds`. */
async function withdrawals(base: string, headers: Record<string, string>, address: string, clients: number, seconds: number) {
  const r = await closedLoops(clients, seconds, () =>
    fetch(`${base}/api/v1/partner/settlement/withdrawal`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: '10.00',
        sequenceId: crypto.randomUUID(),
        source: 'dashboard',
        walletAddress: address,
        cryptoCurrency: 'USDT',
        cryptoNetwork: 'TRC20',
      }),
    }),
  );
  const created = r.statuses['201'] ?? 0;
  return { ...r, perSecond: created / r.elapsed, created };
}

/**
 * Every ~100 ms: the primary's pg_current_wal_lsn(), then the replica asked every 2 ms whether it has replayed that
 * far; the milliseconds from the primary's answer to the replica's first "yes". `write`: a small commit of its own
 * on the primary before each sample (so that there is always something to replicate).
 */
function lagSampler(primaryPort: number, replicaPort: number, { write = false } = {}) {
  const connect = async (port: number) => {
    const c = new pg.Client({ host: HOST, port, ...cluster.operatorAccess().superuser, database: 'postgres' });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };
  const delays: number[] = [];
  let firstPoll = 0;
  let timeouts = 0;
  let running = true;
  const loop = (async () => {
    const primary = await connect(primaryPort);
    const replica = await connect(replicaPort);
    try {
      if (write) await primary.query('create table if not exists bench_lag (id bigserial primary key, at timestamptz not null default now())');
      while (running) {
        const sampleStart = performance.now();
        if (write) await primary.query('insert into bench_lag default values');
        const { rows } = await primary.query<{ lsn: string }>({ name: 'lsn', text: 'select pg_current_wal_lsn()::text as lsn' });
        const t0 = performance.now();
        for (let poll = 1; ; poll++) {
          const r = await replica.query<{ ok: boolean }>({
            name: 'replayed',
            text: 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
            values: [rows[0]!.lsn],
          });
          if (r.rows[0]!.ok) {
            delays.push(performance.now() - t0);
            if (poll === 1) firstPoll += 1;
            break;
          }
          if (performance.now() - t0 > 10_000) {
            timeouts += 1;
            break;
          }
          await sleep(2);
        }
        const wait = 100 - (performance.now() - sampleStart);
        if (wait > 0) await sleep(wait);
      }
    } finally {
      await primary.end().catch(() => undefined);
      await replica.end().catch(() => undefined);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = [...delays].sort((a, b) => a - b);
    return { samples: sorted.length, timeouts, p50: pct(sorted, 50), p95: pct(sorted, 95), max: sorted.at(-1) ?? 0, firstPoll };
  };
}

const showLag = (title: string, l: Awaited<ReturnType<ReturnType<typeof lagSampler>>>) =>
  line(
    title,
    `p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, max ${ms(l.max)} (${l.samples} samples, ${l.firstPoll} already there at the first poll${l.timeouts ? `, ${l.timeouts} not caught up within 10 s` : ''})`,
  );

// ---------------------------------------------------------------------------------------------------------------
// the run

console.log(`── the cluster of npm run cluster on this machine: reads through HAProxy + PgBouncer, one instance, replica lag ──`);
line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);
console.log(
  [
    `  reads: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up then ${SECONDS} s, GET /api/v1/partner/accounts with a bearer token;`,
    `         req/s = completed requests / duration; latency percentiles of the 2xx answers, in whole ms as autocannon records them`,
    `  withdrawals: ${CLIENTS} clients in closed loops (fetch) for ${SECONDS} s through HAProxy, all Acme (one account row lock)`,
    `  replica replay delay: ms from the primary's pg_current_wal_lsn() answer to the replica's pg_last_wal_replay_lsn() >= it`,
    `         (polled every 2 ms; one sample every ~100 ms; both servers on their own ports, not through the TCP proxy)`,
    `  CPU: % of one core per part over the measured window (/proc); the load generator shares the same ${os.cpus().length} cores`,
  ].join('\n'),
);

try {
  const t0 = performance.now();
  await cluster.start();
  const startSeconds = (performance.now() - t0) / 1000;
  const s = await cluster.status();
  if (!('instances' in s) || !s.running) throw new Error('the cluster did not come up');
  line('cluster started (create, migrate, seed, 3 instances, HAProxy)', `${startSeconds.toFixed(1)} s, state in ${clusterDir}`);
  const leaderNode = s.nodes.find((n) => n.leader)!;
  // the replica reads go to (HAProxy's first one up)
  const replicaNode = s.nodes.find((n) => n.balancer.replicas?.startsWith('UP')) ?? s.nodes.find((n) => n.role === 'replica')!;
  // as the instances connect: the app's role
  const { app } = cluster.operatorAccess();
  const primaryUrl = `postgres://${app.user}:${app.password}@${HOST}:${leaderNode.port}/portal`;

  // a funded account and an enabled wallet for Acme's withdrawals, as a top-up and the wallet review leave them
  const acmeAdmin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
  const { address } = generateDemoAddress('TRC20');
  const db = new pg.Client({ connectionString: primaryUrl });
  await db.connect();
  try {
    await db.query(
      `insert into settlement_wallets (partner_id, id, address, network, tag, currencies, status, travel_rule_name, travel_rule_registration_number,
         created_by, created_by_name, reviewed_by, reviewed_by_name, denial_reason, deletion_reason, deleted_by)
       values ($1, $2, $3, 'TRC20', null, '{USDT}', 'enabled', 'Acme Remit Ltd', 'RC-1', $4, 'bench', null, null, null, null, null)`,
      [DEMO_PARTNERS.acme.id, crypto.randomUUID(), address, acmeAdmin.id],
    );
    await db.query(`insert into ledger_entries (partner_id, currency, amount, kind, reference) values ($1, 'USD', 10000000, 'bench_funding', $2)`, [
      DEMO_PARTNERS.acme.id,
      crypto.randomUUID(),
    ]);
  } finally {
    await db.end();
  }

  // one sign-in (a TOTP code is taken once per user and step); the token works on every server: same keys, same database
  const acme = httpClient(s.balancer);
  await acme.signIn('admin@acme.test');
  const token = acme.token()!;

  // the standalone server: the instances' settings (production, the cluster's keys and mail sink), but its database
  // connection goes straight to the primary's own port
  const keys = JSON.parse(fs.readFileSync(path.join(clusterDir, 'keys.json'), 'utf8')) as { JWT_SECRET: string; ENCRYPTION_KEY: string; METRICS_TOKEN: string };
  standalone = await startServerProcess({
    NODE_ENV: 'production',
    DATABASE_URL: primaryUrl,
    JWT_SECRET: keys.JWT_SECRET,
    ENCRYPTION_KEY: keys.ENCRYPTION_KEY,
    METRICS_TOKEN: keys.METRICS_TOKEN,
    SMTP_URL: s.mail.smtp,
    DEMO: 'true',
    DEMO_LIVE: 'false',
    MAIL_CATCHER: 'false',
    LOG_LEVEL: 'warn',
  });

  // 1. and 2.: the same read load on three targets, one after the other
  const view0 = await cluster.balancerView();
  const viaBalancer = await reads(s.balancer, token);
  const view1 = await cluster.balancerView();
  const direct = await reads(standalone.url, token);
  const single = await reads(s.instances[0]!.url, token);
  const searchViaBalancer = await reads(s.balancer, token, 'search');
  const searchDirect = await reads(standalone.url, token, 'search');
  await standalone.stop();
  standalone = undefined;

  console.log(`\n── 1. authenticated reads: HAProxy + 3 instances on PgBouncer vs one server straight on the primary ──`);
  showReads('(a) HAProxy -> 3 instances -> PgBouncer -> HAProxy -> primary', viaBalancer);
  showReads('(b) one standalone server -> primary (its own port)', direct);
  line('ratio (b)/(a) requests/s', `${(direct.rps / viaBalancer.rps).toFixed(2)}`);
  line('ratio (b)/(a) p50 latency', `${(direct.p50 / viaBalancer.p50).toFixed(2)}`);
  const spread = Object.keys(view1)
    .sort()
    .map((n) => `${n} ${(view1[n]!.requests - (view0[n]?.requests ?? 0)).toLocaleString('en-US')}`)
    .join(', ');
  line('  (a) requests per instance (HAProxy counters, incl. warm-up)', spread);
  showCpu('  CPU during (a)', viaBalancer.cpu);
  showCpu('  CPU during (b)', direct.cpu);
  showCpuPerRequest('accounts', viaBalancer, direct);
  note(
    `(a)'s path has the hops that (b)'s has not: HAProxy (in front of the instances, and again as the leader's address PgBouncer ` +
      `reaches) and PgBouncer; with everything on the same cores, their CPU is taken from the servers (lines above)`,
  );

  showReads('(a) a search through HAProxy -> 3 instances -> PgBouncer -> HAProxy -> primary', searchViaBalancer);
  showReads('(b) a search on one standalone server -> primary', searchDirect);
  showCpu('  CPU during (a), searches', searchViaBalancer.cpu);
  showCpu('  CPU during (b), searches', searchDirect.cpu);
  showCpuPerRequest('searches', searchViaBalancer, searchDirect);

  console.log(`\n── 2. one instance against three (both on PgBouncer) ──`);
  showReads('(c) instance-1 alone (its own port) -> PgBouncer -> primary', single);
  showReads('(a) HAProxy -> 3 instances (as above)', viaBalancer);
  line('ratio (a)/(c) requests/s (three instances over one)', `${(viaBalancer.rps / single.rps).toFixed(2)}`);
  line('ratio (a)/(c) p50 latency', `${(viaBalancer.p50 / single.p50).toFixed(2)}`);
  showCpu('  CPU during (c)', single.cpu);
  note(
    `on ${os.cpus().length} cores the load generator, the instances, PgBouncer, the three PostgreSQL nodes with Patroni and etcd, the TCP proxy and HAProxy share the ` +
      `same CPUs: once they are busy, more instances only add processes (and HAProxy's hop) competing for them; three instances ` +
      `pay off when each has cores of its own (several hosts), not here`,
  );

  // 3.: replica lag, idle then under the withdrawal load
  console.log(`\n── 3. replica replay delay, idle and under ${CLIENTS} clients of withdrawals through HAProxy ──`);
  const IDLE = 5;
  let stopLag = lagSampler(leaderNode.port, replicaNode.port);
  await sleep(IDLE * 1000);
  showLag(`idle cluster, ${IDLE} s (nothing or little to replay)`, await stopLag());
  stopLag = lagSampler(leaderNode.port, replicaNode.port, { write: true });
  await sleep(IDLE * 1000);
  showLag(`idle cluster, ${IDLE} s, one small commit before each sample`, await stopLag());

  const headers = await acme.mutatingHeaders();
  await withdrawals(s.balancer, headers, address, CLIENTS, WARMUP);
  const cpu = await cpuWindow();
  stopLag = lagSampler(leaderNode.port, replicaNode.port);
  const w = await withdrawals(s.balancer, headers, address, CLIENTS, SECONDS);
  const lag = await stopLag();
  const wCpu = cpu();
  line(
    `withdrawals, ${CLIENTS} clients, ${SECONDS} s, through HAProxy`,
    `${w.perSecond.toFixed(0)} withdrawals/s (201), p50 ${ms(w.p50)}, p95 ${ms(w.p95)}, p99 ${ms(w.p99)}; answers ${Object.entries(w.statuses)
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ')}`,
  );
  showLag('replica replay delay under that load', lag);
  showCpu('  CPU during the withdrawals', wCpu);
  note(
    'a sample "already there at the first poll" is one round trip to the replica: the replica had replayed that far before the ' +
      "question reached it, so its real delay is below what this can see; the sampler also shares this process's event loop " +
      'with the withdrawal clients (a delay includes its wait for a turn) and polls in 2 ms steps',
  );

  // 4.: what synchronous replication costs a withdrawal: the same load with it, without it, and with it again
  console.log(`\n── 4. withdrawals with synchronous replication and without (${CLIENTS} clients, ${SECONDS} s each) ──`);
  const rounds: [string, boolean][] = [
    ['synchronous (a commit waits for the synchronous replica)', true],
    ['asynchronous (synchronous_mode off)', false],
    ['synchronous again', true],
  ];
  for (const [label, on] of rounds) {
    await cluster.setSynchronous(on);
    await withdrawals(s.balancer, headers, address, CLIENTS, WARMUP);
    const r = await withdrawals(s.balancer, headers, address, CLIENTS, SECONDS);
    line(`withdrawals, ${label}`, `${r.perSecond.toFixed(0)}/s, p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}`);
  }
} finally {
  const t0 = performance.now();
  await cleanup();
  console.log('');
  line('cluster stopped and purged', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  line('whole benchmark', `${((performance.now() - began) / 1000).toFixed(1)} s`);
}
