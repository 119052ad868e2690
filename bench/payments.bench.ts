// Payments on PostgreSQL (a scratch database of the server of BENCH_DATABASE_URL, dropped after). Prints:
// 1. payments processed per second by the sandbox processor (1,000 queued payments, 4 states each, step time 0),
//    with 2 and 8 workers;
// 2. state change to the open portal table: a client holds the event stream and, as the portal does, refetches the
//    table (POST transactions/search) 150 ms after the first change of a burst; from the change's commit time to the
//    refreshed page in hand (goal p95 <= 1 s), and the stream's own delivery time;
// 3. 1,000 concurrent event streams on one server: memory per connection (server and client sockets in one process:
//    an upper bound) and the time for one change to reach all 1,000.
// Run with `node --expose-gc` for steadier memory figures (npm run bench does not). Asserts nothing.
import http from 'node:http';
import os from 'node:os';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { createPaymentQueue, startPaymentWorker } from '../apps/server/src/modules/payments/payment-processing.ts';
import { adminHeaders, listeningApp, pct, scratchDemoDatabase } from './support.ts';
import { kenyaMomo, paymentWorkerDeps } from '../apps/server/test/payment-support.ts';
import { readEvents } from '../apps/server/test/sse.ts';

const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);
const KORA = DEMO_PARTNERS.kora;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);

const scratch = await scratchDemoDatabase('payments');
const { database, keys } = scratch;
try {
  await database.db
    .insertInto('ledger_entries')
    .values({ partner_id: KORA.id, currency: 'USD', amount: '100000000', kind: 'bench_funding', reference: 'bench' })
    .execute();
  const served = await listeningApp(scratch, { PAYMENT_STEP_SECONDS: '0', LIVE_STREAMS_PER_USER: String(STREAMS + 10) }, createPaymentQueue);
  const { app, base, port } = served;
  const user = DEMO_USERS.find((u) => u.email === 'admin@kora.test')!;
  const headers = await adminHeaders(database, keys, base, KORA.id, user);
  const kenya = await kenyaMomo({ database });
  /** The sandbox payment worker of the app, `concurrency` at once, a step every `stepSeconds`. */
  const paymentWorker = (concurrency: number, stepSeconds = 0) => startPaymentWorker({ ...paymentWorkerDeps({ app, database }, { stepSeconds }), concurrency });
  const disburse = async () => {
    const res = await fetch(`${base}/partner/disbursement`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...kenya('1000'), recipient: { name: 'Bench' } }),
    });
    if (res.status !== 201) throw new Error(`disbursement: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { payment: { id: string } }).payment.id;
  };
  const unfinished = async () =>
    Number(((await database.executeSql(`select count(*)::int as n from payment_orders where status <> outcome`)).rows[0] as { n: number }).n);
  console.log('── payments on PostgreSQL ──');
  line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);

  // 1. the processor's throughput
  for (const workers of [2, 8]) {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next++ < 1000) await disburse();
      }),
    );
    const made = (performance.now() - t0) / 1000;
    const started = performance.now();
    const worker = await paymentWorker(workers);
    while ((await unfinished()) > 0) await new Promise((r) => setTimeout(r, 100));
    const s = (performance.now() - started) / 1000;
    await worker.stop();
    line(`1,000 disbursements created over HTTP (20 clients)`, `${(1000 / made).toFixed(0)} payments/s`);
    line(
      `  processed to complete (3 state changes each), ${workers} workers`,
      `${(1000 / s).toFixed(0)} payments/s, ${(3000 / s).toFixed(0)} state changes/s (${s.toFixed(1)} s)`,
    );
  }

  // 2. state change → open table
  const worker = await paymentWorker(2);
  const delivery: number[] = [];
  const table: number[] = [];
  let oldestPending: number | undefined;
  let refetches = 0;
  const search = async () => {
    const res = await fetch(`${base}/transactions/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ table: 'initiate-payments', startIndex: 0, size: 10 }),
    });
    await res.arrayBuffer();
  };
  const stream = await new Promise<http.IncomingMessage>((resolve) =>
    http.get({ host: '127.0.0.1', port, path: '/api/v1/events', headers: { authorization: headers.authorization } }, resolve),
  );
  readEvents(stream, (e) => {
    if (e.type !== 'change' || !e.data) return;
    const at = Date.parse((JSON.parse(e.data) as { at: string }).at);
    delivery.push(Date.now() - at);
    if (oldestPending === undefined) {
      oldestPending = at;
      setTimeout(() => {
        const from = oldestPending!;
        oldestPending = undefined;
        refetches++;
        void search().then(() => table.push(Date.now() - from));
      }, 150);
    }
  });
  // 200 payments at about 10 a second: 800 changes
  for (let i = 0; i < 200; i++) {
    void disburse();
    await new Promise((r) => setTimeout(r, 100));
  }
  while ((await unfinished()) > 0) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500));
  stream.destroy();
  await worker.stop();
  delivery.sort((a, b) => a - b);
  table.sort((a, b) => a - b);
  line(
    'state change committed → event on the stream',
    `p50 ${pct(delivery, 50)} ms, p95 ${pct(delivery, 95)} ms, p99 ${pct(delivery, 99)} ms (${delivery.length} events)`,
  );
  line(
    'state change → open table refetched (150 ms coalescing)',
    `p50 ${pct(table, 50)} ms, p95 ${pct(table, 95)} ms, max ${table.at(-1)} ms (${refetches} refetches; goal p95 <= 1000 ms)`,
  );

  // 3. 1,000 streams
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      globalThis.gc?.();
      await new Promise((r) => setTimeout(r, 300));
    }
    return process.memoryUsage();
  };
  const before = await settle();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const received: number[] = [];
  const streams: http.IncomingMessage[] = [];
  for (let i = 0; i < STREAMS; i++) {
    streams.push(
      await new Promise<http.IncomingMessage>((resolve) =>
        http.get({ host: '127.0.0.1', port, agent, path: '/api/v1/events', headers: { authorization: headers.authorization } }, (res) => {
          res.on('data', (chunk: Buffer) => {
            if (chunk.includes('event: change')) received.push(Date.now());
          });
          resolve(res);
        }),
      ),
    );
  }
  const after = await settle();
  const js = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  line(
    `${STREAMS} open event streams: JS heap + external growth, RSS`,
    `${((js(after) - js(before)) / 1048576).toFixed(1)} MB; RSS ${(before.rss / 1048576).toFixed(0)} → ${(after.rss / 1048576).toFixed(0)} MB`,
  );
  line('  per connection (server and client sides, upper bound)', `${((js(after) - js(before)) / STREAMS / 1024).toFixed(1)} KB heap + external`);
  const sent = Date.now();
  const one = await paymentWorker(1, 3600);
  await disburse();
  while (received.length < STREAMS) await new Promise((r) => setTimeout(r, 5));
  line(`  one change to all ${STREAMS} streams (request to last event)`, `${Math.max(...received) - sent} ms`);
  await one.stop();
  for (const s of streams) s.destroy();

  await served.close();
} finally {
  await scratch.drop();
}
