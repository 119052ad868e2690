import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions } from '../src/db/seed/transactions.ts';
import { DATABASES, setup, signIn, startTestReportWorker, type TestContext } from './harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
type Job = {
  id: string;
  status: string;
  totalPages: number;
  processedPages: number;
  rowCount: number | null;
  downloadURL: string | null;
  expiresAt: string | null;
};
const ACME = DEMO_PARTNERS.acme.id;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

describe.each(DATABASES)('report jobs on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, jobs: true });
    // more than 10,000 rows in the last 18 months: a report is not capped like an export
    await generateTransactions(t.database.db, { partnerId: ACME, rows: 17_000, seed: 'acme-report', fiatWallets: null, tables: ['payments'] });
    await startTestReportWorker(t);
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@lean.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = async (email: string, method: 'get' | 'post', url: string, body?: unknown) => {
    const res =
      method === 'get'
        ? await s[email]!.browser.get(url, { token: s[email]!.accessToken })
        : await s[email]!.browser.post(url, body, { token: s[email]!.accessToken });
    return res;
  };
  const waitDone = async (email: string, id: string) => {
    let job: Job | undefined;
    await expect
      .poll(
        async () => {
          job = (await call(email, 'get', `/api/v1/report-jobs/${id}`)).json<{ job: Job }>().job;
          return job.status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^(complete|failed)$/);
    return job!;
  };

  it('builds a year of payments (more than 10,000 rows) page by page, and any user of the partner downloads it', async () => {
    const created = await call('viewer@acme.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day(-365), endDate: day(0) });
    expect(created.statusCode).toBe(200);
    const { job } = created.json<{ job: Job }>();
    expect(job.status).toBe('requested');
    const done = await waitDone('viewer@acme.test', job.id);
    expect(done.status).toBe('complete');
    expect(done.totalPages).toBeGreaterThanOrEqual(2);
    expect(done.processedPages).toBe(done.totalPages);
    const expected = Number(
      (
        (
          await t.database.executeSql(
            `select count(*)::int as n from payments where partner_id = $1 and created_at >= $2::date and created_at < ($3::date + 1)`,
            [ACME, day(-365), day(0)],
          )
        ).rows[0] as { n: number }
      ).n,
    );
    expect(expected).toBeGreaterThan(10_000);
    expect(done.rowCount).toBe(expected);
    expect(Date.parse(done.expiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const file = await call('admin@acme.test', 'get', done.downloadURL!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.length - 1).toBe(expected);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(expected);
    expect(lines[0]).toContain('Created (UTC)');
  });

  it("lists the partner's jobs newest first, and hides them from another partner", async () => {
    await call('admin@acme.test', 'post', '/api/v1/report-jobs/create', {
      dataSource: 'collections',
      startDate: day(-30),
      endDate: day(0),
      filters: { status: 'complete' },
    });
    const list = (await call('admin@acme.test', 'post', '/api/v1/report-jobs', {})).json<{ jobs: (Job & { dataSource: string })[]; total: number }>();
    expect(list.total).toBe(2);
    expect(list.jobs.map((j) => j.dataSource)).toEqual(['collections', 'payments']);
    const kora = (await call('admin@kora.test', 'post', '/api/v1/report-jobs', {})).json<{ total: number }>();
    expect(kora.total).toBe(0);
    expect((await call('admin@kora.test', 'get', `/api/v1/report-jobs/${list.jobs[1]!.id}`)).statusCode).toBe(404);
    expect((await call('admin@kora.test', 'get', `/api/v1/report-jobs/${list.jobs[1]!.id}/download`)).statusCode).toBe(403);
  });

  it('lets a treasury user request one too', async () => {
    const res = await call('treasury@acme.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'settlements', startDate: day(-5), endDate: day(0) });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ job: Job & { requestedByEmail: string } }>().job.requestedByEmail).toBe('treasury@acme.test');
  });

  it('needs the report-downloads flag, and a range of at most a year', async () => {
    const lean = await call('admin@lean.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day(-10), endDate: day(0) });
    expect(lean.statusCode).toBe(403);
    const long = await call('admin@acme.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day(-400), endDate: day(0) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ message: 'A report can span a year at most.' });
    const backwards = await call('admin@acme.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day(0), endDate: day(-1) });
    expect(backwards.statusCode).toBe(400);
  });

  it('starts a half-built job over after a restart, without duplicating rows', async () => {
    const { job } = (await call('admin@acme.test', 'post', '/api/v1/report-jobs/create', { dataSource: 'fees', startDate: day(-365), endDate: day(0) })).json<{
      job: Job;
    }>();
    await waitDone('admin@acme.test', job.id);
    // as if the server stopped mid-job: the row says in progress and a partial file lies around
    await t.database.db
      .updateTable('report_jobs')
      .set({ status: 'in_progress', processed_pages: 1, expires_at: null, file_key: null })
      .where('id', '=', job.id)
      .execute();
    const part = path.join(t.app.config.dataDir, `reports/${ACME}/${job.id}.csv.part`);
    fs.writeFileSync(part, 'garbage,from,a,crash\r\n'.repeat(50));
    const { startReportWorker: restart } = await import('../src/modules/reports/report-worker.ts');
    await restart({ boss: t.app.boss!, db: t.database.db, storage: t.app.storage, partners: t.app.services.partnerAccess, log: t.app.log });
    const again = await waitDone('admin@acme.test', job.id);
    expect(again.status).toBe('complete');
    const body = (await call('admin@acme.test', 'get', again.downloadURL!)).body;
    expect(body).not.toContain('garbage');
    const lines = body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.length - 1).toBe(again.rowCount);
    expect(fs.existsSync(part)).toBe(false);
  });

  it('builds a report of a status group: the stored filter lists its statuses, and the file holds those rows only', async () => {
    const status = 'failed,refund_failed';
    const created = await call('admin@acme.test', 'post', '/api/v1/report-jobs/create', {
      dataSource: 'payments',
      startDate: day(-365),
      endDate: day(0),
      filters: { status },
    });
    expect(created.statusCode).toBe(200);
    const { job } = created.json<{ job: Job & { filters: Record<string, string> } }>();
    expect(job.filters).toEqual({ status });
    const done = await waitDone('admin@acme.test', job.id);
    expect(done.status).toBe('complete');
    const expected = Number(
      (
        (
          await t.database.executeSql(
            `select count(*)::int as n from payments where partner_id = $1 and status in ('failed', 'refund_failed') and created_at >= $2::date and created_at < ($3::date + 1)`,
            [ACME, day(-365), day(0)],
          )
        ).rows[0] as { n: number }
      ).n,
    );
    expect(expected).toBeGreaterThan(0);
    expect(done.rowCount).toBe(expected);
    const lines = (await call('admin@acme.test', 'get', done.downloadURL!)).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const column = lines[0]!.split(',').indexOf('Status');
    expect(new Set(lines.slice(1).map((l) => l.split(',')[column]))).toEqual(new Set(['Failed', 'Refund Failed']));
  });

  it('expires a report after 24 hours', async () => {
    const list = (await call('admin@acme.test', 'post', '/api/v1/report-jobs', {})).json<{ jobs: Job[] }>();
    const complete = list.jobs.find((j) => j.status === 'complete')!;
    t.clock.now = Date.now() + 25 * 3600_000;
    const later = (await call('admin@acme.test', 'get', `/api/v1/report-jobs/${complete.id}`)).json<{ job: Job }>().job;
    expect(later).toMatchObject({ status: 'expired', downloadURL: null });
    expect((await call('admin@acme.test', 'get', `/api/v1/report-jobs/${complete.id}/download`)).statusCode).toBe(410);
  });
});
