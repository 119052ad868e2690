import crypto from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../src/db/outage.ts';
import { serverDatabase } from './harness.ts';
import { httpClient, type HttpReply } from './http-client.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { tcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The faults of a real deployment, on the real server process and a PostgreSQL server: the database's TCP cut under
 * load, the database refusing connections, and a graceful stop on SIGTERM. The process must live through each,
 * answer 503 with Retry-After while the database is away (never 500), and serve again within 5 s of its return.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the same requests in a loop until stopped, recording every reply with the moment it came. */
function steadyLoad(calls: (() => Promise<HttpReply>)[]) {
  const replies: { at: number; status: number; retryAfter: string | null; code?: string }[] = [];
  let running = true;
  const loops = calls.map(async (call) => {
    while (running) {
      const r = await call();
      replies.push({ at: Date.now(), status: r.status, retryAfter: r.retryAfter, code: (r.body as { code?: string } | undefined)?.code });
      await sleep(20);
    }
  });
  return {
    replies,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function kenyaMomo(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const channel = await client.query<{ id: string }>(
      "select id from channels where country = 'KE' and ramp_type = 'withdraw' and channel_type = 'momo' limit 1",
    );
    const network = await client.query<{ id: string }>("select id from payment_networks where country = 'KE' and code = 'MPESA' limit 1");
    return (amount: string) => ({
      country: 'KE',
      channelId: channel.rows[0]!.id,
      networkId: network.rows[0]!.id,
      accountNumber: '+254712345678',
      recipient: { name: 'Amina Juma' },
      amount,
      sequenceId: crypto.randomUUID(),
    });
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the server process through database faults', () => {
  let database: { url: string; drop(): Promise<void> };
  let proxy: TcpProxy;
  let server: ServerProcess;
  beforeAll(async () => {
    database = await serverDatabase();
    const target = new URL(database.url);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await startServerProcess({ DATABASE_URL: proxy.through(database.url), LOGIN_RATE_LIMIT: '10000', PAYMENT_STEP_SECONDS: '0' });
  }, 120_000);
  afterAll(async () => {
    if (server && !server.alive()) console.error(server.output());
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('lives through a 10 s cut of its database connection under load: 503 with Retry-After during it, 200 within 5 s after, nothing half-written', async () => {
    const startedAt = new Date();
    const admin = httpClient(server.url);
    await admin.signIn('admin@kora.test');
    const pay = await kenyaMomo(database.url);
    const payments: { body: ReturnType<typeof pay>; reply: HttpReply }[] = [];
    const load = steadyLoad([
      () => admin.get('/api/v1/partner/accounts'),
      () => admin.post('/api/v1/transactions/search', { table: 'payments', size: 10 }),
      async () => {
        const body = pay('10');
        const reply = await admin.post('/api/v1/partner/disbursement', body);
        payments.push({ body, reply });
        return reply;
      },
      () => httpClient(server.url).post('/api/v1/users/login', { email: 'nobody@kora.test', password: 'not-the-password' }),
    ]);
    await sleep(1500);
    const cutAt = Date.now();
    proxy.cut();
    const healthDuringCut: number[] = [];
    while (Date.now() - cutAt < 10_000) {
      healthDuringCut.push((await fetch(`${server.url}/healthz`)).status);
      await sleep(500);
    }
    const readyDuringCut = await fetch(`${server.url}/readyz`);
    proxy.restore();
    const restoredAt = Date.now();
    let servedAgainAt: number | undefined;
    while (!servedAgainAt && Date.now() - restoredAt < 15_000) {
      if ((await admin.get('/api/v1/partner/accounts')).status === 200) servedAgainAt = Date.now();
      else await sleep(100);
    }
    await sleep(1000);
    await load.stop();

    expect(server.alive(), server.output()).toBe(true);
    expect(healthDuringCut.every((s) => s === 200)).toBe(true);
    expect(readyDuringCut.status).toBe(503);
    expect(readyDuringCut.headers.get('retry-after')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
    expect(((await readyDuringCut.json()) as { reason?: string }).reason).toMatch(/cannot be reached/);
    expect(servedAgainAt, 'served again after the cut').toBeDefined();
    expect(servedAgainAt! - restoredAt).toBeLessThan(5000);

    // never a 500; while cut, only 503 with Retry-After (or an answer the database was not needed for)
    const statuses = new Map<number, number>();
    for (const r of load.replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(
      [...statuses.keys()].filter((s) => s >= 500 && s !== 503),
      JSON.stringify([...statuses]),
    ).toEqual([]);
    const during = load.replies.filter((r) => r.at > cutAt + 200 && r.at < restoredAt);
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((r) => r.status === 503).length).toBeGreaterThan(during.length / 2);
    for (const r of during.filter((x) => x.status === 503))
      expect(r).toMatchObject({ retryAfter: String(OUTAGE_RETRY_AFTER_SECONDS), code: 'ServiceUnavailable' });
    const after = load.replies.filter((r) => r.at > servedAgainAt! + 500);
    expect(after.length).toBeGreaterThan(4);
    expect(after.filter((r) => r.status >= 500)).toEqual([]);

    // money: every payment answered 201 is booked with its debit once; one refused by the outage is booked or not,
    // never half, and sending it again (its sequenceId) books it once
    const refused = payments.filter((p) => p.reply.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const p of refused) expect([201, 200]).toContain((await admin.post('/api/v1/partner/disbursement', p.body)).status);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const orders = await client.query<{ sequence_id: string; debits: number }>(
        `select o.sequence_id, (select count(*)::int from ledger_entries l where l.partner_id = o.partner_id and l.kind = 'disbursement' and l.reference = o.id::text) as debits
           from payment_orders o where o.partner_id = $1 and o.kind = 'disbursement'`,
        [DEMO_PARTNERS.kora.id],
      );
      const bySequence = new Map(orders.rows.map((r) => [r.sequence_id, r.debits]));
      for (const p of payments.filter((x) => x.reply.status === 201 || x.reply.status === 503))
        expect(bySequence.get(p.body.sequenceId), p.body.sequenceId).toBe(1);
      // no debit of this test's payments without its order (the demo's history books Kora's initiated payments,
      // which have no order: the entries of before the test are not this test's)
      const orphans = await client.query(
        `select 1 from ledger_entries l where l.partner_id = $1 and l.kind = 'disbursement' and l.created_at >= $2
           and not exists (select 1 from payment_orders o where o.partner_id = l.partner_id and o.id::text = l.reference)`,
        [DEMO_PARTNERS.kora.id, startedAt],
      );
      expect(orphans.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  }, 90_000);

  it('answers 503 with Retry-After while the database refuses connections, and serves again within 5 s of its return', async () => {
    const admin = httpClient(server.url);
    await admin.signIn('admin@acme.test');
    const name = new URL(database.url).pathname.slice(1);
    const owner = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await owner.connect();
    try {
      await owner.query(`alter database ${pg.escapeIdentifier(name)} allow_connections false`);
      await owner.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      await sleep(300);
      const replies = [
        await admin.get('/api/v1/partner/accounts'),
        await admin.post('/api/v1/transactions/search', { table: 'payments', size: 10 }),
        await httpClient(server.url).post('/api/v1/users/login', { email: 'admin@acme.test', password: 'whatever-it-is' }),
      ];
      for (const r of replies) {
        expect(r.status, r.text).toBe(503);
        expect(r.retryAfter).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
      }
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await owner.query(`alter database ${pg.escapeIdentifier(name)} allow_connections true`);
      await owner.end();
    }
    const back = Date.now();
    let served = false;
    while (!served && Date.now() - back < 10_000) {
      served = (await admin.get('/api/v1/partner/accounts')).status === 200;
      if (!served) await sleep(100);
    }
    expect(served).toBe(true);
    expect(Date.now() - back).toBeLessThan(5000);
    expect(server.alive()).toBe(true);
  }, 60_000);

  it('stops on SIGTERM within 10 s with exit code 0: a request in flight finishes, an open stream is told to reconnect', async () => {
    const viewer = httpClient(server.url);
    await viewer.signIn('viewer@acme.test');
    let streamText = '';
    const streamEnded = new Promise<void>((resolve, reject) => {
      const req = http.get(`${server.url}/api/v1/events`, { headers: { authorization: `Bearer ${viewer.token()!}` } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (streamText += chunk));
        res.on('end', resolve);
        res.on('close', resolve);
      });
      req.on('error', reject);
    });
    await viewer.get('/api/v1/partner/accounts');
    // a search in flight when the signal comes: its headers and half its body sent, the rest after the signal
    const body = JSON.stringify({ table: 'payments', size: 100 });
    const headers = await viewer.mutatingHeaders();
    const reply = new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v1/transactions/search`, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 500);
    });
    await sleep(200);
    const signalledAt = Date.now();
    server.signal('SIGTERM');
    const [answered, exit] = await Promise.all([reply, server.exited, streamEnded]);
    expect(answered.status).toBe(200);
    expect(exit.code, server.output().slice(-4000)).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(10_000);
    expect(streamText).toMatch(/retry: \d+\nevent: reconnect/);
  }, 30_000);
});
