// A working day, compressed (npm run soak -- --minutes N): real Chromium sessions of two partners' people use the
// portal through the cluster (HAProxy, three instances, PgBouncer, three PostgreSQL nodes under Patroni) while it is
// deployed, failed over and cut, with access tokens short enough that every tab crosses many renewals. At the end
// it checks what a person and a treasurer would: nobody signed out who did not ask, no acknowledged money lost or
// booked twice, balances equal to their ledgers, no error page or 5xx, every open tab's live events delivered; and
// prints the figures as a table. Exit 1 when a check fails. docs/deployment.md ("The soak") says how to read it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import type * as Cluster from '../../scripts/cluster.d.mts';
import { DEMO_PARTNERS, DEMO_USERS } from '../../apps/server/src/db/seed/demo.ts';
import { generateDemoAddress } from '../../apps/server/src/lib/deposit-addresses.ts';
import { queryOnce } from '../../apps/server/test/cluster/query.ts';
import { chromiumPath, launch } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { checkAll, type Phase } from './checks.ts';
import { newJournal, personaBrowser } from './tabs.ts';
import { WORK, workIn, type WorkContext } from './work.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    'token-seconds': { type: 'string', default: '60' },
    'idle-seconds': { type: 'string', default: '90' },
    keep: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(args.minutes);
const TOKEN_SECONDS = Number(args['token-seconds']);
const IDLE_SECONDS = Number(args['idle-seconds']);
const IDLE_LOGOUT_SECONDS = 10;
if (!(MINUTES >= 2) || !(TOKEN_SECONDS >= 10) || !(IDLE_SECONDS >= 30)) {
  console.error('usage: npm run soak -- [--minutes N (>= 2)] [--token-seconds S (>= 10)] [--idle-seconds S (>= 30)] [--keep]');
  process.exit(64);
}
if (!chromiumPath) {
  console.error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  process.exit(69);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

if (!process.env.CLUSTER_DIR) {
  // a cluster of its own beside any other; readable by the postgres user the database servers run as
  process.env.CLUSTER_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'));
  fs.chmodSync(process.env.CLUSTER_DIR, 0o755);
}
process.env.CLUSTER_PORT ??= '18190';
Object.assign(process.env, {
  ACCESS_TOKEN_SECONDS: String(TOKEN_SECONDS),
  IDLE_WARNING_SECONDS: String(IDLE_SECONDS),
  IDLE_LOGOUT_SECONDS: String(IDLE_LOGOUT_SECONDS),
  // payments and withdrawals reach their end while the soak watches
  PAYMENT_STEP_SECONDS: '2',
  SETTLEMENT_PROCESSING_SECONDS: '2',
  SETTLEMENT_COMPLETION_SECONDS: '4',
  DEMO_LIVE_SECONDS: '3',
  LOGIN_RATE_LIMIT: '1000',
  LOG_LEVEL: 'warn',
});
// screenshots of stuck steps: kept after the cluster is removed
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-soak-shots-'));

// the cluster script of `npm run cluster` (imported after the variables above are set: it reads them on load)
const cluster: typeof Cluster = await import('../../scripts/cluster.mjs');
const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;

async function main() {
  log(
    `a ${MINUTES}-minute day: access tokens of ${TOKEN_SECONDS} s, idle sign-out after ${IDLE_SECONDS + IDLE_LOGOUT_SECONDS} s, cluster at ${process.env.CLUSTER_DIR}`,
  );
  const startedCluster = performance.now();
  await cluster.start();
  const state = (await cluster.status()) as Cluster.ClusterStatus;
  log(`cluster up in ${((performance.now() - startedCluster) / 1000).toFixed(1)} s: ${state.balancer}`);
  // a query on the leader, through HAProxy's address of it (as the instances reach it)
  const db = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => queryOnce<T>(state.env.DATABASE_DIRECT_URL, text, values);

  // Acme's wallet, enabled as the wallet review and its screening leave one, for the withdrawals
  const acmeAdmin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
  await db(
    `insert into settlement_wallets (partner_id, id, address, network, tag, currencies, status, travel_rule_name, travel_rule_registration_number,
       created_by, created_by_name, reviewed_by, reviewed_by_name, denial_reason, deletion_reason, deleted_by)
     values ($1, $2, $3, 'TRC20', null, '{USDT}', 'enabled', 'Acme Remit Ltd', 'RC-2019-004512', $4, 'Ada Mensah', null, null, null, null, null)`,
    [ACME, crypto.randomUUID(), generateDemoAddress('TRC20').address, acmeAdmin.id],
  );

  const browser = await launch();
  const journal = newJournal();
  let serial = 0;
  const ctx: WorkContext = {
    timings: [],
    stuck: [],
    sentAgain: [],
    done: new Map(),
    serial: () => ++serial,
    shot: async (page: Page, name: string) => {
      const file = path.join(outDir, `${name.replace(/[^\w.-]+/g, '-')}-${Date.now()}.png`);
      return page.screenshot({ path: file, timeout: 5000 }).then(
        () => file,
        () => undefined,
      );
    },
  };

  // the people: each signs in in one tab and opens a second one (signed in by the shared session)
  const people = [
    { email: 'admin@acme.test', partner: ACME, work: WORK.acmeAdmin },
    { email: 'treasury@acme.test', partner: ACME, work: WORK.acmeTreasury },
    { email: 'viewer@acme.test', partner: ACME, work: WORK.acmeView },
    { email: 'admin@kora.test', partner: KORA, work: WORK.koraAdmin },
  ];
  const tabs: { name: string; page: Page; work: (typeof people)[number]['work'][number] }[] = [];
  for (const person of people) {
    const persona = await personaBrowser(browser, journal, person.partner, person.email);
    const first = await persona.open('tab 1');
    await signInAs(first.page, state.balancer, person.email);
    const second = await persona.open('tab 2');
    await second.page.goto(`${state.balancer}/transactions`);
    await second.page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    tabs.push({ name: first.tab.name, page: first.page, work: person.work[0]! }, { name: second.tab.name, page: second.page, work: person.work[1]! });
  }
  // and one who signs in and leaves the browser alone: the idle rule signs it out
  const idle = await personaBrowser(browser, journal, ACME, 'admin2@acme.test (left alone)');
  const idleTab = await idle.open('tab 1');
  await signInAs(idleTab.page, state.balancer, 'admin2@acme.test');
  const idleSince = Date.now();
  // from here on, an arrival on /login is counted
  for (const t of journal.tabs) t.onLogin.length = 0;
  log(`${tabs.length + 1} tabs signed in; working`);

  // the day's events, once per 5 minutes of the run, each at its place in the cycle
  const began = Date.now();
  const endAt = began + MINUTES * 60_000;
  const cycles = Math.max(1, Math.round(MINUTES / 5));
  const cycleMs = (MINUTES * 60_000) / cycles;
  const phases: Phase[] = [];
  const events: { at: number; name: string; run: () => Promise<unknown> }[] = [];
  for (let c = 0; c < cycles; c++) {
    const at = (f: number) => began + c * cycleMs + f * cycleMs;
    events.push(
      { at: at(0.12), name: 'rolling deploy', run: () => cluster.deploy() },
      { at: at(0.27), name: 'PgBouncer restart', run: () => cluster.restartPooler() },
      { at: at(0.4), name: 'primary killed', run: () => cluster.killPrimary() },
      {
        at: at(0.58),
        name: 'replica stopped and started',
        run: async () => {
          const node = await cluster.stopReplica();
          await sleep(15_000);
          await cluster.startReplica(node);
        },
      },
      {
        at: at(0.74),
        name: 'primary cut 10 s',
        run: async () => {
          await cluster.cutPrimary(10);
          await sleep(10_000);
        },
      },
    );
  }
  const schedule = (async () => {
    for (const event of events) {
      await sleep(Math.max(0, event.at - Date.now()));
      const from = Date.now();
      log(`${event.name}...`);
      try {
        // the database whole again (a leader, both replicas streaming, one synchronous) before its next fault
        if (/primary|replica/.test(event.name)) await cluster.settle({ ms: 180_000 });
        await event.run();
        phases.push({ name: event.name, from, to: Date.now() + 15_000, ok: true });
        log(`${event.name}: done in ${((Date.now() - from) / 1000).toFixed(1)} s`);
      } catch (err) {
        phases.push({ name: event.name, from, to: Date.now() + 15_000, ok: false, error: String(err) });
        log(`${event.name} FAILED: ${String(err)}`);
      }
    }
  })();

  const until = () => Date.now() >= endAt;
  await Promise.all([schedule, ...tabs.map((t) => workIn(t.name, t.page, t.work, ctx, until))]);
  const stoppedAt = Date.now();
  log('the day is over; checking');

  const result = await checkAll({
    db,
    cluster,
    journal,
    ctx,
    phases,
    began,
    stoppedAt,
    idle: { tab: idleTab.tab.name, since: idleSince, seconds: IDLE_SECONDS + IDLE_LOGOUT_SECONDS },
    partners: { [ACME]: 'Acme', [KORA]: 'Kora' },
    tokenSeconds: TOKEN_SECONDS,
  });
  await browser.close();
  return result;
}

let ok = false;
try {
  ok = await main();
} catch (err) {
  console.error(err);
} finally {
  if (!args.keep) await cluster.stop({ purge: true }).catch((err: unknown) => console.error(err));
  else log(`the cluster is kept: CLUSTER_DIR=${process.env.CLUSTER_DIR} CLUSTER_PORT=${process.env.CLUSTER_PORT} npm run cluster -- status`);
}
process.exit(ok ? 0 : 1);
