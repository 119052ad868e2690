import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { App } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { MIGRATION_COUNT, migrateToLatest, migrationStatus } from '../src/db/migrate.ts';
import * as reportQueueMigration from '../src/db/migrations/0009-report-queue.ts';
import { DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { REPORT_QUEUE } from '../src/modules/reports/report-queue.ts';
import { requeueOrphanedReports, startReportWorker } from '../src/modules/reports/report-worker.ts';
import type { FileStorage } from '../src/lib/file-storage.ts';
import type { Keys } from '../src/lib/keys.ts';
import { signAccessToken } from '../src/lib/tokens.ts';
import { DATABASES, browser, freshDatabase, setup, twoInstances, type TestContext } from './harness.ts';

const ACME = DEMO_PARTNERS.acme.id;
const KORA = DEMO_PARTNERS.kora.id;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const REPORT = { dataSource: 'payments', startDate: day(-30), endDate: day(0) };
type Job = { id: string; status: string; rowCount: number | null; downloadURL: string | null };

/** A signed-in caller of the API without the sign-in ceremony: a session row and a token signed with the app's key. */
async function caller(app: App, keys: Pick<Keys, 'jwtSecret'>, email: string) {
  const user = DEMO_USERS.find((u) => u.email === email)!;
  const partnerId = DEMO_PARTNERS[user.partner].id;
  const sid = crypto.randomUUID();
  await app.database.db
    .insertInto('auth_sessions')
    .values({ partner_id: partnerId, id: sid, user_id: user.id, expires_at: new Date(Date.now() + 3600_000) })
    .execute();
  const token = await signAccessToken(keys.jwtSecret, { sub: user.id, pid: partnerId, role: user.role, email: user.email, name: user.name, sid });
  const b = browser(app);
  await b.post('/api/v1/report-jobs', {}, { token }); // fetches the request-forgery token once, before any parallel call
  return {
    create: (body: unknown = REPORT) => b.post('/api/v1/report-jobs/create', body, { token }),
    get: (id: string) => b.get(`/api/v1/report-jobs/${id}`, { token }),
    download: (url: string) => b.get(url, { token }),
  };
}

/** Kora gets the report-downloads flag, so that two partners can ask for reports. */
async function enableReportsFor(database: Database, partnerId: string) {
  await database.executeSql(`update partners set feature_flags = feature_flags || '{"reportDownloadsEnabled": true}'::jsonb where id = $1`, [partnerId]);
}

describe.each(DATABASES)('the report queue on %s', (kind) => {
  let t: TestContext;
  let boss: PgBoss;
  beforeAll(async () => {
    t = await setup(kind, { config: { REPORT_ACTIVE_LIMIT: '3' }, jobs: true });
    boss = t.app.boss!;
    await enableReportsFor(t.database, KORA);
  });
  afterAll(async () => {
    await t?.close();
  });

  const activeRows = (partnerId: string) =>
    t.database.db
      .selectFrom('report_jobs')
      .select(['id', 'queue_rank', 'queue_job_id'])
      .where('partner_id', '=', partnerId)
      .where('status', 'in', ['requested', 'in_progress', 'data_downloaded'])
      .orderBy('queue_rank')
      .execute();
  /** Takes every waiting job off the report queue, completing each without a build: whose each was, in the order handed out. */
  const takeAll = async () => {
    const order: string[] = [];
    for (;;) {
      const [job] = (await boss.fetch<{ partnerId: string; id: string }>(REPORT_QUEUE)) ?? [];
      if (!job) return order;
      order.push(job.data.partnerId === ACME ? 'acme' : 'kora');
      await boss.complete(REPORT_QUEUE, job.id);
    }
  };

  it('refuses a partner more reports than its limit, even when the requests arrive together', async () => {
    const acme = await caller(t.app, t.keys, 'admin@acme.test');
    const answers = await Promise.all(Array.from({ length: 10 }, () => acme.create()));
    const accepted = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    expect(refused[0]!.json()).toMatchObject({ code: 'TooManyActiveReports', message: 'You already have 3 reports being prepared. Wait for one to finish.' });
    expect(refused[0]!.json<{ requestId: string }>().requestId).toBeTruthy();
    const rows = await activeRows(ACME);
    expect(rows).toHaveLength(3);
    // each in its place in the partner's line, each with its queue job
    expect(rows.map((r) => r.queue_rank)).toEqual([0, 1, 2]);
    expect(rows.every((r) => r.queue_job_id)).toBe(true);
    // another partner is not held up by Acme's limit
    const kora = await caller(t.app, t.keys, 'admin@kora.test');
    expect((await kora.create({ ...REPORT, dataSource: 'trades' })).statusCode).toBe(200);
  });

  it("serves every partner's first waiting report before anyone's second (round robin)", async () => {
    // Acme queued three, then Kora one: the queue hands out Acme's first, Kora's, then Acme's others in order
    const order = await takeAll();
    expect(order).toEqual(['acme', 'kora', 'acme', 'acme']);
    const acmeRanks = (await activeRows(ACME)).map((r) => r.queue_rank);
    expect(acmeRanks).toEqual([0, 1, 2]);
  });

  it('queues again a report whose queue job ended without building it, and leaves one whose job still waits', async () => {
    // the four reports above had their queue jobs completed without a build: all four are orphans now
    const kora = await caller(t.app, t.keys, 'admin@kora.test');
    expect((await kora.create({ ...REPORT, dataSource: 'trades' })).statusCode).toBe(200); // its job waits: not an orphan
    expect(await requeueOrphanedReports(boss, t.database.db)).toBe(4);
    expect(await requeueOrphanedReports(boss, t.database.db)).toBe(0);
    // queued again at their place in line
    const order = await takeAll();
    expect(order.filter((o) => o === 'acme')).toHaveLength(3);
    expect(order.slice(0, 3).sort()).toEqual(['acme', 'kora', 'kora']);
    // done with these: out of the partners' lines
    await t.database.db.updateTable('report_jobs').set({ status: 'failed' }).execute();
  });

  it('puts a partner whose line has emptied first in line again', async () => {
    const acme = await caller(t.app, t.keys, 'admin@acme.test');
    const res = await acme.create();
    expect(res.statusCode).toBe(200);
    expect((await activeRows(ACME)).map((r) => r.queue_rank)).toEqual([0]);
    await t.database.db.updateTable('report_jobs').set({ status: 'failed' }).execute();
    await boss.purgeQueue(REPORT_QUEUE);
  });

  it('builds as many reports at once as its concurrency allows', async () => {
    // the file store holds every build at its start until released: builds in progress together show the concurrency
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const storage: FileStorage = {
      ...t.app.storage,
      create: async (key) => {
        await gate;
        return t.app.storage.create(key);
      },
    };
    const acme = await caller(t.app, t.keys, 'admin@acme.test');
    const kora = await caller(t.app, t.keys, 'admin@kora.test');
    const ids = [
      (await acme.create()).json<{ job: Job }>().job.id,
      (await acme.create()).json<{ job: Job }>().job.id,
      (await kora.create({ ...REPORT, dataSource: 'trades' })).json<{ job: Job }>().job.id,
    ];
    await startReportWorker({ boss, db: t.database.db, storage, partners: t.app.services.partnerAccess, log: t.app.log, concurrency: 2 });
    const statuses = async () => Promise.all(ids.map(async (id, i) => (await (i < 2 ? acme : kora).get(id)).json<{ job: Job }>().job.status));
    // two builders: Acme's first and Kora's (round robin) start; Acme's second waits for a free builder
    await expect.poll(statuses, { timeout: 15_000, interval: 100 }).toEqual(['in_progress', 'requested', 'in_progress']);
    release();
    await expect.poll(statuses, { timeout: 20_000, interval: 200 }).toEqual(['complete', 'complete', 'complete']);
  });
});

describe.each(DATABASES)("the report queue's migration on %s", (kind) => {
  it('applies on a database that already has migrations numbered after it (they landed first)', async () => {
    const database = await freshDatabase(kind);
    try {
      await migrateToLatest(database.db);
      // as a database migrated before 0009 was merged: 0011 applied, 0009 not
      await reportQueueMigration.down(database.db as unknown as Kysely<unknown>);
      await database.executeSql(`delete from kysely_migration where name = '0009-report-queue'`);
      expect(await migrateToLatest(database.db)).toEqual(['0009-report-queue']);
      expect(await migrationStatus(database.db)).toEqual({ applied: MIGRATION_COUNT, pending: 0 });
    } finally {
      await database.close();
    }
  });
});

/** Two servers (own pool, own pg-boss, same data directory) on one PostgreSQL database. */
describe.runIf(DATABASES.includes('postgres'))('two servers on one PostgreSQL', () => {
  let two: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    two = await twoInstances({
      jobs: true,
      prepare: (database) => generateTransactions(database.db, { partnerId: ACME, rows: 2_000, seed: 'two-servers', fiatWallets: null, tables: ['payments'] }),
    });
  });
  afterAll(async () => {
    await two?.close();
  });

  it('builds on the second server a report requested on the first, which then serves the file', async () => {
    const { a: first, b: second } = two;
    // only the second server builds reports
    await startReportWorker({
      boss: second.app.boss!,
      db: second.database.db,
      storage: second.app.storage,
      partners: second.app.services.partnerAccess,
      log: second.app.log,
      concurrency: 2,
    });
    const onFirst = await caller(first.app, first.keys, 'admin@acme.test');
    const created = await onFirst.create({ dataSource: 'payments', startDate: day(-365), endDate: day(0) });
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ job: Job }>().job;
    let job: Job | undefined;
    await expect.poll(async () => (job = (await onFirst.get(id)).json<{ job: Job }>().job).status, { timeout: 20_000, interval: 200 }).toBe('complete');
    const file = await onFirst.download(job!.downloadURL!);
    expect(file.statusCode).toBe(200);
    expect(
      file.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(job!.rowCount! + 1);
    const built = await second.app.boss!.getJobById(
      REPORT_QUEUE,
      (await first.database.db.selectFrom('report_jobs').select('queue_job_id').where('id', '=', id).executeTakeFirstOrThrow()).queue_job_id!,
    );
    expect(built?.state).toBe('completed');
  });
});
