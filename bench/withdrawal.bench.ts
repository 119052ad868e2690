// Withdrawals on PostgreSQL over HTTP: withdrawals per second and latency (p50, p95, p99) at 50 concurrent clients
// (budget: p95 <= 100 ms), each request a new withdrawal (its own sequenceId). Two shapes: 50 clients of one partner
// (every withdrawal takes the same account row lock, one after the other) and 50 partners with one client each. Then
// 500 requests with 200 sequenceIds (the rest repeats) at the same concurrency, against a balance that covers some:
// double debits and the ledger are counted. A scratch database on the server of BENCH_DATABASE_URL, dropped after.
// The processing job is not running: what is measured is the request (checks, lock, booking, queueing the job).
// Asserts nothing.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../apps/server/src/db/database.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { createWithdrawalQueue } from '../apps/server/src/modules/withdrawals/withdrawal-processing.ts';
import { adminHeaders, fund, listeningApp, scratchDemoDatabase, withdrawalLoop as closedLoop, type WithdrawalClient } from './support.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);
const ACME = DEMO_PARTNERS.acme;

/** Partners like Acme, each with an admin, a funded USD account and an enabled wallet. */
async function partners(database: Database, n: number, prefix: string) {
  const out: { partnerId: string; user: { id: string; email: string; name: string } }[] = [];
  for (let i = 0; i < n; i++) {
    const partnerId = crypto.randomUUID();
    const user = { id: crypto.randomUUID(), email: `${prefix.toLowerCase()}${i}@bench.test`, name: `Bench ${prefix} ${i}` };
    await database.db
      .insertInto('partners')
      .values({
        id: partnerId,
        name: `Bench ${prefix} ${i}`,
        abbreviation: `${prefix}${i}`,
        product_types: ['B2B'],
        feature_flags: JSON.stringify({ walletManagementEnabled: true }),
        wallet_address: null,
        withdrawal_address: null,
        settlement_threshold: null,
        low_balance_limit: null,
        payout_frequency: null,
      })
      .execute();
    await database.db.insertInto('currency_accounts').values({ partner_id: partnerId, currency: 'USD' }).execute();
    await database.db
      .insertInto('users')
      .values({
        partner_id: partnerId,
        id: user.id,
        name: user.name,
        email: user.email,
        role: 'admin',
        status: 'active',
        password_hash: null,
        totp_secret_enc: null,
        totp_last_step: null,
      })
      .execute();
    out.push({ partnerId, user });
  }
  return out;
}

const scratch = await scratchDemoDatabase('withdrawal');
const { database, keys } = scratch;
try {
  const served = await listeningApp(scratch, { WITHDRAWAL_MAX_USD: '1000000.00' }, createWithdrawalQueue);
  const { base } = served;
  const headersFor = (partnerId: string, user: { id: string; email: string; name: string }) => adminHeaders(database, keys, base, partnerId, user);

  const acmeAdmin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
  const acmeAddress = await fund(database, ACME.id, acmeAdmin.id, '100000000.00');
  const acmeHeaders = await headersFor(ACME.id, acmeAdmin);
  console.log(`── withdrawals on PostgreSQL, ${CLIENTS} concurrent clients, ${SECONDS} s each, over HTTP (budget: p95 <= 100 ms) ──`);
  line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);
  // warm-up: connections, statement plans, JIT of the request path
  await closedLoop(
    base,
    Array.from({ length: 10 }, () => ({ headers: acmeHeaders, address: acmeAddress })),
    2,
    '10.00',
  );

  const one = await closedLoop(
    base,
    Array.from({ length: CLIENTS }, () => ({ headers: acmeHeaders, address: acmeAddress })),
    SECONDS,
    '10.00',
  );
  const show = (title: string, r: typeof one) =>
    line(
      title,
      `${r.perSecond.toFixed(0)} withdrawals/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.count.toLocaleString('en-US')} requests, ${r.failures} not 201; node CPU ${r.cpuMs.toFixed(2)} ms each)`,
    );
  show(`one partner, ${CLIENTS} clients (one account lock)`, one);

  const many = await partners(database, CLIENTS, 'B');
  const manyClients: WithdrawalClient[] = [];
  for (const p of many)
    manyClients.push({ headers: await headersFor(p.partnerId, p.user), address: await fund(database, p.partnerId, p.user.id, '100000000.00') });
  const spread = await closedLoop(base, manyClients, SECONDS, '10.00');
  show(`${CLIENTS} partners, one client each`, spread);

  // 500 requests, 200 sequenceIds, against a balance that covers 70 of them
  const p = (await partners(database, 1, 'R'))[0]!;
  const headers = await headersFor(p.partnerId, p.user);
  const address = await fund(database, p.partnerId, p.user.id, '700.00');
  const ids = Array.from({ length: 200 }, () => crypto.randomUUID());
  const order = Array.from({ length: 500 }, (_, i) => ids[i % 200]!).sort(() => Math.random() - 0.5);
  const statuses: Record<number, number> = {};
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < order.length) {
        const sequenceId = order[next++]!;
        const res = await fetch(`${base}/partner/settlement/withdrawal`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ amount: '10.00', sequenceId, walletAddress: address, cryptoCurrency: 'USDT', cryptoNetwork: 'TRC20' }),
        });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const ms = performance.now() - t0;
  const ledger = (
    await database.executeSql(
      `select coalesce(sum(amount), 0)::text as balance, count(*) filter (where kind = 'settlement')::int as debits, count(distinct reference) filter (where kind = 'settlement')::int as refs
       from ledger_entries where partner_id = $1 and currency = 'USD'`,
      [p.partnerId],
    )
  ).rows[0] as { balance: string; debits: number; refs: number };
  const requests = Number(
    ((await database.executeSql(`select count(*)::int as n from settlement_requests where partner_id = $1`, [p.partnerId])).rows[0] as { n: number }).n,
  );
  line(
    '500 requests, 200 sequenceIds, balance for 70 (USD 700)',
    `${(ms / 1000).toFixed(2)} s; answers ${Object.entries(statuses)
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ')}`,
  );
  line(
    '  withdrawals booked / ledger debits / distinct debits',
    `${requests} / ${ledger.debits} / ${ledger.refs} (double debits: ${ledger.debits - ledger.refs})`,
  );
  line(
    '  balance afterwards (700 - 10 × booked)',
    `${ledger.balance} (${Number(ledger.balance) === 700 - 10 * requests ? 'matches the ledger' : 'DOES NOT MATCH'}; negative: ${Number(ledger.balance) < 0 ? 'yes' : 'no'})`,
  );

  await served.close();
} finally {
  await scratch.drop();
}
