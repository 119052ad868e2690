// The report queue under a flood, on PostgreSQL: one partner fires report requests as fast as it can (the incident:
// 1,324 in 16 s), then a second partner asks for one report. Prints how long the second partner's report waits to
// start (budget: 30 s) and to be ready, with the per-partner limit on, and with it lifted (fairness alone).
// Each scenario runs on a scratch database on the server of BENCH_DATABASE_URL, dropped afterwards. Asserts nothing.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { generateTransactions } from '../apps/server/src/db/seed/transactions.ts';
import { createBoss } from '../apps/server/src/jobs/boss.ts';
import { startReportWorker } from '../apps/server/src/modules/reports/report-worker.ts';
import { adminToken, scratchDemoDatabase } from './support.ts';

const FLOOD = Number(process.env.BENCH_FLOOD ?? 1324);
/** requests of the flood in flight at once */
const FLOOD_PARALLEL = 16;
const CONCURRENCY = Number(process.env.REPORT_CONCURRENCY ?? 2);
/** give up waiting for the second partner's report after this long */
const GIVE_UP_MS = Number(process.env.BENCH_GIVE_UP_SECONDS ?? 900) * 1000;
const line = (name: string, value: string) => console.log(`${name.padEnd(60)} ${value}`);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const ACME = DEMO_PARTNERS.acme;
const KORA = DEMO_PARTNERS.kora;

async function scenario(title: string, env: Record<string, string>) {
  const scratch = await scratchDemoDatabase('queue', 8);
  const { database, dataDir, keys } = scratch;
  try {
    // the flooding partner's reports are a year of payments each (about 33,000 rows, 7 pages)
    await generateTransactions(database.db, { partnerId: ACME.id, rows: 50_000, seed: 'queue-bench', fiatWallets: null, tables: ['payments'] });
    await generateTransactions(database.db, { partnerId: KORA.id, rows: 2_000, seed: 'queue-bench', fiatWallets: null, tables: ['trades'] });
    await database.executeSql(`update partners set feature_flags = feature_flags || '{"reportDownloadsEnabled": true}'::jsonb where id = $1`, [KORA.id]);

    const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DATA_DIR: dataDir, REPORT_CONCURRENCY: String(CONCURRENCY), ...env });
    const boss = createBoss(database);
    await boss.start();
    const app = await buildApp({ config, database, keys, boss });
    await app.ready();
    await startReportWorker({ boss, db: database.db, storage: app.storage, partners: app.services.partnerAccess, log: app.log, concurrency: CONCURRENCY });

    const as = async (email: string) => {
      const u = DEMO_USERS.find((x) => x.email === email)!;
      const token = await adminToken(database.db, keys.jwtSecret, u.partner === 'acme' ? ACME.id : KORA.id, u);
      const csrfRes = await app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers: { authorization: `Bearer ${token}` } });
      const cookie = csrfRes.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const headers = { authorization: `Bearer ${token}`, 'x-csrf-token': csrfRes.json<{ csrf: string }>().csrf, cookie };
      return {
        create: (body: unknown) => app.inject({ method: 'POST', url: '/api/v1/report-jobs/create', headers, payload: body as object }),
        status: async (id: string) =>
          (await app.inject({ method: 'GET', url: `/api/v1/report-jobs/${id}`, headers })).json<{ job: { status: string } }>().job.status,
      };
    };
    const acme = await as('admin@acme.test');
    const kora = await as('admin@kora.test');

    console.log(`── report queue: ${title} ──`);
    const floodStart = performance.now();
    let accepted = 0;
    let refused = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: FLOOD_PARALLEL }, async () => {
        while (next < FLOOD) {
          next += 1;
          const res = await acme.create({ dataSource: 'payments', startDate: day(-364), endDate: day(0) });
          if (res.statusCode === 200) accepted += 1;
          else refused += 1;
        }
      }),
    );
    const floodMs = performance.now() - floodStart;
    line(
      `flood: ${FLOOD.toLocaleString('en-US')} requests from one partner`,
      `${s(floodMs)}: ${accepted.toLocaleString('en-US')} accepted, ${refused.toLocaleString('en-US')} refused (429)`,
    );

    const created = await kora.create({ dataSource: 'trades', startDate: day(-30), endDate: day(0) });
    if (created.statusCode !== 200) throw new Error(`the second partner's request answered ${created.statusCode}: ${created.body}`);
    const id = created.json<{ job: { id: string } }>().job.id;
    const t0 = performance.now();
    let started: number | undefined;
    let done: number | undefined;
    while (performance.now() - t0 < GIVE_UP_MS) {
      const status = await kora.status(id);
      if (started === undefined && status !== 'requested') started = performance.now() - t0;
      if (status === 'complete' || status === 'failed') {
        done = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const acmeDone = Number(
      (
        (await database.executeSql(`select count(*)::int as n from report_jobs where partner_id = $1 and status = 'complete'`, [ACME.id])).rows[0] as {
          n: number;
        }
      ).n,
    );
    const elapsed = (performance.now() - floodStart) / 60_000;
    line("second partner's report: wait to start", started === undefined ? `> ${s(GIVE_UP_MS)} (gave up)` : `${s(started)} (budget <= 30 s)`);
    line("second partner's report: ready to download", done === undefined ? `> ${s(GIVE_UP_MS)} (gave up)` : s(done));
    line(
      `reports built meanwhile (${CONCURRENCY} builders)`,
      `${acmeDone.toLocaleString('en-US')} of the flood in ${elapsed.toFixed(1)} min (${(acmeDone / elapsed).toFixed(0)} a minute)`,
    );

    // stop taking jobs and let the builds in flight end before the database goes
    await boss.stop({ graceful: true, wait: true, timeout: 60_000 });
    await app.close();
  } finally {
    await scratch.drop();
  }
}

await scenario('per-partner limit on (REPORT_ACTIVE_LIMIT default)', {});
await scenario('limit lifted: fairness between partners alone', { REPORT_ACTIVE_LIMIT: '1000000' });
