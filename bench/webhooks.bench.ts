// Webhook delivery throughput: 1,000 events, each recorded in its own transaction (as a change would be), to one
// local receiver. Prints how many arrived (all must), their first-attempt latency (from the commit of the change to
// the receiver's reading of the request; budget p95 <= 1 s) and the rate, for a burst (1,000 changes as fast as 8
// writers can commit them) and for a steady 100 changes a second. Runs on the embedded database and on a scratch
// database of the PostgreSQL server of BENCH_DATABASE_URL. The receiver runs in a process of its own; every request is
// verified with the standardwebhooks library.
// Asserts nothing.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { benchServerUrl as serverUrl, withAdminClient as adminClient } from './support.ts';
import { Webhook } from 'standardwebhooks';
import Fastify from 'fastify';
import { openDatabase, type Database } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { DEMO_PARTNERS, seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { createBoss } from '../apps/server/src/jobs/boss.ts';
import { startWebhookDelivery } from '../apps/server/src/modules/webhooks/webhook-delivery.ts';
import { encrypt, randomKeys } from '../apps/server/src/lib/keys.ts';
import { livePublisher } from '../apps/server/src/lib/live-bus.ts';
import { recordEvent } from '../apps/server/src/modules/webhooks/webhook-events.ts';
import { newWebhookSecret, webhookMessageId } from '../apps/server/src/modules/webhooks/webhook-signing.ts';
import type { Received } from '../apps/server/test/webhook-receiver.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const WRITERS = 8;
const STEADY_RATE = 100;
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 32);
const ACME = DEMO_PARTNERS.acme.id;
const line = (name: string, value: string) => console.log(`${name.padEnd(60)} ${value}`);
const ms = (v: number) => `${v.toFixed(0)} ms`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** The receiver process: its address, and what it received since the last call. */
async function startReceiver() {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'webhook-receiver-process.ts'), { execArgv: ['--import', 'tsx'] });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const { url } = await next<{ url: string }>();
  return {
    url,
    dump: async () => {
      const reply = next<{ received: Received[] }>();
      child.send('dump');
      return (await reply).received;
    },
    close: () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.send('stop'))),
  };
}

async function run(title: string, database: Database) {
  await migrateToLatest(database.db);
  const { encryptionKey } = randomKeys();
  await seedDemo(database.db, encryptionKey, { transactions: false });
  const rx = await startReceiver();
  const secret = newWebhookSecret();
  await database.db
    .insertInto('webhook_endpoints')
    .values({
      partner_id: ACME,
      id: crypto.randomUUID(),
      url: `${rx.url}/bench`,
      events: ['PAYMENT.COMPLETE'],
      secret_encrypted: encrypt(encryptionKey, secret),
    })
    .execute();
  const boss = createBoss(database);
  await boss.start();
  const delivery = await startWebhookDelivery({
    boss,
    database,
    encryptionKey,
    notifier: { notify: () => Promise.resolve(0) },
    log: Fastify({ logger: false }).log,
    schedule: [1, 1, 1],
    concurrency: CONCURRENCY,
    allowPrivateTargets: true,
    live: livePublisher(database),
  });

  /** Records one change's event in its own transaction; the time it committed, by webhook-id. */
  const committed = new Map<string, number>();
  const change = async (n: number) => {
    const { eventId } = await database.db
      .transaction()
      .execute((trx) => recordEvent(trx, { partnerId: ACME, type: 'PAYMENT.COMPLETE', data: { id: crypto.randomUUID(), n, status: 'complete' } }));
    committed.set(webhookMessageId(eventId), performance.now() + performance.timeOrigin);
  };

  async function scenario(name: string, record: () => Promise<void>) {
    committed.clear();
    await rx.dump();
    const start = performance.now();
    await record();
    const recordedIn = performance.now() - start;
    const deadline = Date.now() + 120_000;
    const received: Received[] = [];
    const ids = new Set<string>();
    while (ids.size < EVENTS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      for (const r of await rx.dump()) {
        received.push(r);
        ids.add(r.id);
      }
    }
    const elapsed = Math.max(...received.map((r) => r.at)) - (start + performance.timeOrigin);
    const firsts = new Map<string, number>();
    let verified = 0;
    const wh = new Webhook(secret);
    for (const r of received) {
      if (!firsts.has(r.id)) firsts.set(r.id, r.at);
      wh.verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });
      verified += 1;
    }
    const latencies = [...firsts].map(([id, at]) => at - committed.get(id)!).sort((a, b) => a - b);
    console.log(`── webhooks on ${title}: ${name} ──`);
    line(`${EVENTS.toLocaleString('en-US')} changes recorded`, `${ms(recordedIn)} (${((EVENTS / recordedIn) * 1000).toFixed(0)} a second)`);
    line(
      'delivered (distinct webhook-ids) / requests / verified',
      `${firsts.size.toLocaleString('en-US')} / ${received.length.toLocaleString('en-US')} / ${verified.toLocaleString('en-US')}`,
    );
    line('all delivered after', ms(elapsed));
    line(
      'first-attempt latency after the commit p50 / p95 / p99 / max',
      `${ms(pct(latencies, 50))} / ${ms(pct(latencies, 95))} / ${ms(pct(latencies, 99))} / ${ms(latencies.at(-1) ?? NaN)} (budget p95 <= 1 s)`,
    );
  }

  let next = 0;
  await scenario(`burst (${WRITERS} writers)`, async () => {
    next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < EVENTS) await change(next++);
      }),
    );
  });
  await scenario(`steady ${STEADY_RATE} changes a second`, async () => {
    const t0 = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const due = t0 + (i * 1000) / STEADY_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(change(i));
    }
    await Promise.all(pending);
  });

  await delivery.stop();
  await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  await rx.close();
}

const embedded = await openDatabase({ kind: 'pglite' });
try {
  await run('the embedded database (PGlite)', embedded);
} finally {
  await embedded.close();
}

const name = `portal_bench_webhooks_${crypto.randomBytes(4).toString('hex')}`;
let serverReachable = true;
try {
  await adminClient((c) => c.query(`create database ${name}`));
} catch (err) {
  serverReachable = false;
  console.log(`(PostgreSQL at ${serverUrl.host} not reachable: ${(err as Error).message}; skipped)`);
}
if (serverReachable) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 10 });
  try {
    await run('PostgreSQL', database);
  } finally {
    await database.close();
    await adminClient((c) => c.query(`drop database if exists ${name} with (force)`));
  }
}
