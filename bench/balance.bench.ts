// Money in constant time, on PostgreSQL over HTTP: GET partner/accounts, GET partner/balance (available, what is under
// way, the last movements) and a withdrawal's latency for Acme, at growing sizes of its history (BENCH_BALANCE_SIZES
// rows in each of its transaction tables, the ledger their rows imply: budget p95 <= 10 ms for the
// reads, the same withdrawal p95 at every size within 20%). Beside them, what the balance cost when it was summed from
// the entries (the query the reads used before the balances were kept), and the daily reconciliation's time. A scratch
// database on the server of BENCH_DATABASE_URL, dropped after. Asserts nothing.
import os from 'node:os';
import { sql } from 'kysely';
import { bookDemoLedger } from '../apps/server/src/db/seed/ledger.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { TRANSACTION_TABLES, generateTransactions } from '../apps/server/src/db/seed/transactions.ts';
import { createWithdrawalQueue } from '../apps/server/src/modules/withdrawals/withdrawal-processing.ts';
import { reconcileAccounts } from '../apps/server/src/modules/ledger/ledger.repository.ts';
import { adminHeaders, fund, listeningApp, pct, scratchDemoDatabase, withdrawalLoop } from './support.ts';

/** Sizes of Acme's history, rows per table, in the order loaded (BENCH_BALANCE_SIZES, e.g. 200000,1700000: 10,200,000 rows in the six tables). */
const SIZES = (process.env.BENCH_BALANCE_SIZES ?? '20000,200000').split(',').map(Number);
const CALLS = Number(process.env.BENCH_CALLS ?? 40);
const line = (name: string, value: string) => console.log(`${name.padEnd(66)} ${value}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const ACME = DEMO_PARTNERS.acme;

const scratch = await scratchDemoDatabase('balance');
const { database, keys } = scratch;
const db = database.db;
try {
  const served = await listeningApp(scratch, { WITHDRAWAL_MAX_USD: '1000000.00' }, createWithdrawalQueue);
  const { base } = served;
  const acmeAdmin = DEMO_USERS.find((u) => u.email === 'admin@acme.test')!;
  const headers = await adminHeaders(database, keys, base, ACME.id, acmeAdmin);
  const address = await fund(database, ACME.id, acmeAdmin.id, '100000000.00');

  console.log(`── balances on PostgreSQL over HTTP, Acme's history at ${SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} rows per table ──`);
  line('machine: cores, load average (1 min) at start', `${os.cpus().length}, ${os.loadavg()[0]!.toFixed(2)}`);

  /** `CALLS` reads of a path one after the other (a person's screen), after 5 to warm; p50 and p95 in ms. */
  const reads = async (p: string) => {
    const times: number[] = [];
    for (let i = 0; i < CALLS + 5; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/${p}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
      if (i >= 5) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return `p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}`;
  };
  /** The statement's time, in ms (one run, after one to warm). */
  const timed = async (run: () => Promise<unknown>) => {
    await run();
    const started = performance.now();
    await run();
    return performance.now() - started;
  };

  let loaded = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    for (const table of TRANSACTION_TABLES) {
      await generateTransactions(db, {
        partnerId: ACME.id,
        rows: size - loaded,
        seed: `bench-balance-${size}-${table}`,
        fiatWallets: ['USD', 'NGN', 'KES'],
        tables: [table],
      });
    }
    await bookDemoLedger(db, ACME.id, ACME.balances);
    loaded = size;
    await sql`analyze`.execute(db);
    const entries = await sql<{ n: string }>`select count(*)::text as n from ledger_entries where partner_id = ${ACME.id}`.execute(db);
    console.log(
      `\n${size.toLocaleString('en-US')} rows per table: ${Number(entries.rows[0]!.n).toLocaleString('en-US')} ledger entries for Acme (loaded and booked in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    line('  GET partner/accounts', await reads('partner/accounts'));
    line('  GET partner/balance (available, under way, last movements)', await reads('partner/balance'));
    const withdrawals = await withdrawalLoop(
      base,
      Array.from({ length: 10 }, () => ({ headers, address })),
      5,
      '10.00',
    );
    line(
      '  withdrawals, 10 clients of Acme for 5 s',
      `p50 ${ms(withdrawals.p50)}, p95 ${ms(withdrawals.p95)}, ${withdrawals.perSecond.toFixed(0)}/s, ${withdrawals.failures} failed`,
    );
    const summed = await timed(() => sql`select coalesce(sum(amount), 0) from ledger_entries where partner_id = ${ACME.id} and currency = 'USD'`.execute(db));
    line('  before: the balance summed from the entries (each read did this)', ms(summed));
    const reconcile = await timed(() => reconcileAccounts(db, ACME.id));
    line("  the reconciliation of Acme's accounts (daily; kept = entries?)", `${ms(reconcile)}, differing: ${(await reconcileAccounts(db, ACME.id)).length}`);
  }
  await served.close();
} finally {
  await scratch.drop();
}
